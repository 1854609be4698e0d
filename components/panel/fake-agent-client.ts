import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent, PanelIntent } from '../../lib/messaging/agent-messages';

/** A test's line to the agent host: records the panel's intents, and plays the host's events and connection. */
interface FakeAgentClient extends AgentClient {
  sent: PanelIntent[];
  emit(event: HostEvent): void;
  setConnected(value: boolean): void;
}

/** Creates a fake client for the panel's store tests (connected unless told otherwise). */
export function fakeAgentClient(connected = true): FakeAgentClient {
  const sent: PanelIntent[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let answered = connected;
  return {
    sent,
    send: (intent) => void sent.push(intent),
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
      for (const listener of connectionListeners) listener(value);
    },
  };
}
