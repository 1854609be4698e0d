import type { AgentClient } from '../../lib/messaging/agent-client';
import { HOST_LEFT_UNANSWERED, type HostEvent, type PanelAsks, type PanelIntent } from '../../lib/messaging/agent-messages';

/** One ask the fake client holds, for the test to answer, update or fail. */
interface FakeAsk {
  type: keyof PanelAsks;
  request: PanelAsks[keyof PanelAsks]['request'];
  signal?: AbortSignal;
  answer(value: unknown): void;
  update(value: unknown): void;
  fail(error: Error): void;
}

/** A test's line to the agent host: records the panel's intents and asks, and plays the host's events and connection. */
interface FakeAgentClient extends AgentClient {
  sent: PanelIntent[];
  /** The asks made so far, in order (answered ones too). */
  asks: FakeAsk[];
  emit(event: HostEvent): void;
  /** Losing the connection fails every ask still pending with HOST_LEFT_UNANSWERED, as the real client does. */
  setConnected(value: boolean): void;
}

/** Creates a fake client for the panel's store tests (connected unless told otherwise). */
export function fakeAgentClient(connected = true): FakeAgentClient {
  const sent: PanelIntent[] = [];
  const asks: FakeAsk[] = [];
  const pending = new Set<FakeAsk>();
  const listeners = new Set<(event: HostEvent) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let answered = connected;
  return {
    sent,
    asks,
    send: (intent) => void sent.push(intent),
    ask: (type, request, options = {}) =>
      new Promise((resolve, reject) => {
        const ask: FakeAsk = {
          type,
          request,
          ...(options.signal ? { signal: options.signal } : {}),
          answer: (value) => pending.delete(ask) && resolve(value as never),
          update: (value) => void (pending.has(ask) && options.onUpdate?.(value as never)),
          fail: (error) => pending.delete(ask) && reject(error),
        };
        options.signal?.addEventListener('abort', () => ask.fail(options.signal?.reason), { once: true });
        asks.push(ask);
        pending.add(ask);
      }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connected: () => answered,
    onConnectionChange: (listener) => {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    close: () => {},
    emit: (event) => {
      for (const listener of listeners) listener(event);
    },
    setConnected: (value) => {
      answered = value;
      if (!value) for (const ask of [...pending]) ask.fail(new Error(HOST_LEFT_UNANSWERED));
      for (const listener of connectionListeners) listener(value);
    },
  };
}
