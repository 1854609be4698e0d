/**
 * A test double of the native Port and the native host behind it (bridge/src/native-host.ts), in memory: the agent
 * host's end is a BridgeBrowser (what lib/background/create-native-link.ts, or Chrome's client of it, gives the host),
 * the other end speaks for one desktop agent's connection at a time, by clientId, as the native host relays it (it
 * stamps what a connection sends with its clientId and gives each connection the replies that name it, and notices to
 * all). Messages are cloned and delivered asynchronously, in order, as over native messaging. `dropPort` is the native
 * Port disconnecting (the host ended, the service worker restarted): the BridgeBrowser's state turns `failed`, and
 * every connection closes, as the host's socket connections do when it ends.
 */
import type {
  BridgeBrowser,
  BridgeBrowserListener,
  BridgeTabInfo,
  NativeLinkState,
  NativeOutbound,
} from '../messaging/mcp-bridge-messages';

/** One desktop agent's connection to the native host (a socket), as the test drives it. */
export interface MemoryNativeConnection {
  /** A line the connection writes: the host stamps it with this connection's clientId. */
  send(wire: Record<string, unknown>): void;
  /** Lines the host writes to this connection (replies naming it, and notices to all). */
  onMessage(listener: (wire: Record<string, unknown>) => void): void;
  /** The connection closed (the host ended). */
  onClose(listener: () => void): void;
  /** The connection closes: the extension hears client/gone. */
  close(): void;
}

/** The double: the host's BridgeBrowser (showing `tabs`), connections, and the Port's drop. */
export function createMemoryNativeHost(tabs: BridgeTabInfo[] = []): {
  browser: BridgeBrowser;
  /** Everything the extension posted to the native host. */
  posted: NativeOutbound[];
  connect(clientId: string): MemoryNativeConnection;
  /** The native Port disconnects, with the browser's reason. */
  dropPort(error: string): void;
} {
  const listeners = new Set<BridgeBrowserListener>();
  const posted: NativeOutbound[] = [];
  const connections = new Map<string, { hear: Set<(wire: Record<string, unknown>) => void>; closed: Set<() => void> }>();
  let state: NativeLinkState = { state: 'closed' };
  const later = (run: () => void) => void setTimeout(run, 0);
  const setState = (next: NativeLinkState) => {
    state = next;
    for (const l of [...listeners]) l.state?.(next);
  };
  const closeConnection = (clientId: string) => {
    const connection = connections.get(clientId);
    if (!connection) return;
    connections.delete(clientId);
    for (const l of [...connection.closed]) l();
  };
  const browser: BridgeBrowser = {
    async open() {
      if (state.state !== 'open') setState({ state: 'open' });
      return state;
    },
    async close() {
      for (const clientId of [...connections.keys()]) closeConnection(clientId);
      setState({ state: 'closed' });
      return state;
    },
    async post(message) {
      if (state.state !== 'open') return false;
      const copy = structuredClone(message);
      posted.push(copy);
      later(() => {
        const { clientId, ...rest } = copy as NativeOutbound & { clientId?: string };
        const to = typeof clientId === 'string' ? [connections.get(clientId)] : [...connections.values()];
        for (const connection of to) for (const l of [...(connection?.hear ?? [])]) l(rest);
      });
      return true;
    },
    tabs: async () => structuredClone(tabs),
    notify: async () => true,
    clearNotification: async () => true,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    browser,
    posted,
    connect(clientId) {
      const connection = { hear: new Set<(wire: Record<string, unknown>) => void>(), closed: new Set<() => void>() };
      connections.set(clientId, connection);
      return {
        send: (wire) => {
          const copy = structuredClone({ ...wire, clientId });
          later(() => {
            if (connections.get(clientId) === connection && state.state === 'open') for (const l of [...listeners]) l.message?.(copy);
          });
        },
        onMessage: (listener) => void connection.hear.add(listener),
        onClose: (listener) => void connection.closed.add(listener),
        close: () => {
          if (connections.get(clientId) !== connection) return;
          closeConnection(clientId);
          later(() => {
            for (const l of [...listeners]) l.message?.({ type: 'client/gone', clientId });
          });
        },
      };
    },
    dropPort(error) {
      for (const clientId of [...connections.keys()]) closeConnection(clientId);
      setState({ state: 'failed', error });
    },
  };
}
