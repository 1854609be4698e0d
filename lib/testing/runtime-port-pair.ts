/**
 * A test double of runtime.connect and runtime.onConnect, in memory: Ports with runtime Port semantics (messages are
 * cloned and delivered asynchronously, in order; disconnecting one end tells the other, never the end that
 * disconnected; posting on a disconnected Port throws, as Chrome's does). `sender` is what the accepting end's Port
 * says, the browser's attestation of who connected. `stop` is this context going away (a service worker stopped, a
 * document closed): every Port it accepted disconnects, and its listeners hear nothing more.
 */
import type { AttestedSender } from '../messaging/is-host-sender';

/** One end of a runtime Port (browser.runtime.Port as the code under test reads it). */
export interface TestRuntimePort {
  name: string;
  sender?: AttestedSender;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port?: object) => void): void };
  disconnect(): void;
}

/** How a message or a disconnect is delivered: a task (as the browser does, the default), or a microtask. */
type Schedule = (run: () => void) => void;
const asTask: Schedule = (run) => void setTimeout(run, 0);

/** Two connected ends: `connecting` (what runtime.connect gives) and `accepted` (what onConnect hears). */
export function createRuntimePortPair(
  name: string,
  sender?: AttestedSender,
  schedule: Schedule = asTask,
): { connecting: TestRuntimePort; accepted: TestRuntimePort } {
  let open = true;
  const end = (): TestRuntimePort & { hear: Set<(m: unknown) => void>; gone: Set<(port?: object) => void> } => {
    const hear = new Set<(m: unknown) => void>();
    const gone = new Set<(port?: object) => void>();
    return {
      name,
      hear,
      gone,
      postMessage: () => undefined,
      onMessage: { addListener: (l) => void hear.add(l) },
      onDisconnect: { addListener: (l) => void gone.add(l) },
      disconnect: () => undefined,
    };
  };
  const a = end();
  const b = { ...end(), ...(sender ? { sender } : {}) };
  const join = (from: typeof a, to: typeof a) => {
    from.postMessage = (message) => {
      if (!open) throw new Error('Attempting to use a disconnected port object');
      const copy = structuredClone(message);
      schedule(() => {
        if (open) for (const l of [...to.hear]) l(copy);
      });
    };
    from.disconnect = () => {
      if (!open) return;
      open = false;
      schedule(() => {
        for (const l of [...to.gone]) l(to);
      });
    };
  };
  join(a, b);
  join(b, a);
  return { connecting: a, accepted: b };
}

/** One context's runtime.onConnect, reached by `connect` as runtime.connect from `sender` would. */
export function createRuntimeConnectEvent(schedule: Schedule = asTask) {
  const listeners = new Set<(port: TestRuntimePort) => void>();
  const accepted = new Set<TestRuntimePort>();
  let stopped = false;
  return {
    onConnect: { addListener: (listener: (port: TestRuntimePort) => void) => void listeners.add(listener) },
    /** runtime.connect from `sender`: the connecting end (it disconnects at once when no listener takes it). */
    connect(name: string, sender?: AttestedSender): TestRuntimePort {
      const pair = createRuntimePortPair(name, sender, schedule);
      if (stopped || listeners.size === 0) {
        pair.accepted.disconnect();
        return pair.connecting;
      }
      accepted.add(pair.accepted);
      for (const listener of [...listeners]) listener(pair.accepted);
      return pair.connecting;
    },
    /** This context goes away: every Port it accepted disconnects. */
    stop() {
      stopped = true;
      for (const port of accepted) port.disconnect();
      accepted.clear();
    },
  };
}
