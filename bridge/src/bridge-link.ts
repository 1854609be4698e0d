/**
 * The MCP server's line to the extension: a connection to the native-messaging host's socket, and on it a request
 * line (create-request-line.ts, over bridge-socket-transport.ts) that matches requests to their replies, carries
 * cancels and the person's wait, and fails every pending request when the connection drops. The browser may start
 * after the desktop agent, restart, or turn the bridge off and on: the link keeps trying (every `retryMs`), with a
 * new line per connection, and says when it connects or loses the connection, so the server can tell its client
 * that the tools changed.
 */
import { randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { bridgeSocketTransport, EXTENSION_REFUSED } from './bridge-socket-transport.js';
import { createRequestLine, type RequestLine } from './create-request-line.js';
import {
  BRIDGE_PROTOCOL,
  type BridgeClientInfo,
  type HostHello,
  type ReplyResults,
  type RequestFields,
  type RequestType,
  type ServerAsks,
} from './protocol.js';

/** Why a request got no answer: the browser side is not there (or went away while it waited). */
export class NotConnectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotConnectedError';
  }
}

/** The extension refused a request and said why. */
export class ExtensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtensionError';
  }
}

/** What the host and the extension tell the server. */
interface ServerHears {
  'host/hello': { request: { browser: HostHello['browser'] }; answer: undefined };
  'tools/list-changed': { request: object; answer: undefined };
}

interface BridgeLinkOptions {
  socketPath: string;
  /** The client as it named itself (read when the link connects). */
  client: () => BridgeClientInfo;
  /** The nonce of the delimiter the server's instructions name (lib/page-data/spotlight.ts on the extension side). */
  nonce: string;
  /** Connected (after the extension answered the hello), or the connection was lost. */
  onConnectionChange?: (connected: boolean) => void;
  /** The extension says the shared tools changed. */
  onListChanged?: () => void;
  /** How long to wait between attempts to connect. Default 2 s. */
  retryMs?: number;
  /** net.connect, replaceable in tests. */
  connect?: (path: string) => Socket;
}

/** The link. */
export interface BridgeLink {
  /** Starts connecting (and keeps trying). */
  start(): void;
  /** Whether the extension answered on the current connection. */
  connected(): boolean;
  /** The browser family the host said it serves, while connected. */
  browser(): HostHello['browser'] | undefined;
  /** Waits up to `ms` for a connection (a request right after start need not fail). */
  whenConnected(ms: number): Promise<boolean>;
  /**
   * Sends a request and resolves with the extension's answer; rejects with NotConnectedError or ExtensionError.
   * `onWaiting` hears the extension say the call waits for the person.
   */
  request<T extends RequestType>(
    type: T,
    fields: RequestFields<T>,
    signal?: AbortSignal,
    onWaiting?: (message: string) => void,
  ): Promise<ReplyResults[T]>;
  /** Says hello again (the client named itself after the link connected). */
  rehello(): void;
  close(): void;
}

/** Creates the link (not yet connecting: call start). */
export function createBridgeLink(options: BridgeLinkOptions): BridgeLink {
  const connectTo = options.connect ?? netConnect;
  const retryMs = options.retryMs ?? 2_000;
  let socket: Socket | undefined;
  let line: RequestLine<ServerAsks> | undefined;
  let ready = false;
  let hostBrowser: HostHello['browser'] | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const waiters = new Set<() => void>();

  const setReady = (value: boolean) => {
    if (ready === value) return;
    ready = value;
    for (const wake of [...waiters]) wake();
    options.onConnectionChange?.(value);
  };

  const hello = (current: Socket, currentLine: RequestLine<ServerAsks>) => {
    const fields = { protocol: BRIDGE_PROTOCOL, client: options.client(), nonce: options.nonce };
    currentLine.ask('client/hello', fields).then(
      () => {
        if (socket === current) setReady(true);
      },
      () => current.destroy(),
    );
  };

  const schedule = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      open();
    }, retryMs);
  };

  const open = () => {
    if (closed || socket) return;
    const current = connectTo(options.socketPath);
    socket = current;
    const currentLine: RequestLine<ServerAsks> = createRequestLine<ServerAsks, ServerHears>({
      transport: bridgeSocketTransport(current),
      nextId: randomUUID,
      closedError: () => new NotConnectedError('The browser closed the connection before it answered.'),
      notices: {
        'host/hello': ({ browser }) => {
          hostBrowser = browser;
          hello(current, currentLine);
        },
        'tools/list-changed': () => options.onListChanged?.(),
      },
    });
    line = currentLine;
    current.on('error', () => current.destroy());
    current.on('close', () => {
      if (socket !== current) return;
      socket = undefined;
      line = undefined;
      hostBrowser = undefined;
      setReady(false);
      schedule();
    });
  };

  return {
    start: open,
    connected: () => ready,
    browser: () => (ready ? hostBrowser : undefined),
    whenConnected: (ms) =>
      ready
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              waiters.delete(wake);
              resolve(ready);
            };
            const timer = setTimeout(wake, ms);
            waiters.add(wake);
          }),
    async request(type, fields, signal, onWaiting) {
      if (!ready || !line) throw new NotConnectedError('Not connected to the browser.');
      try {
        // Every request's updates are the person's wait (a string): the compiler cannot see it through T.
        const asked = { signal, ...(onWaiting ? { onUpdate: onWaiting } : {}) } as never;
        return (await line.ask(type, fields as never, asked)) as never;
      } catch (error) {
        if (error instanceof Error && error.name === EXTENSION_REFUSED) throw new ExtensionError(error.message);
        if (signal?.aborted && error === signal.reason && !(error instanceof Error)) throw new Error('cancelled');
        throw error;
      }
    },
    rehello() {
      if (socket && line && hostBrowser) hello(socket, line);
    },
    close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      socket?.destroy();
    },
  };
}
