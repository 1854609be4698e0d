import { createAgentClient } from '../messaging/agent-client';
import { AGENT_PORT_NAME, type PanelAsks } from '../messaging/agent-messages';
import { createAgentPortPair } from './agent-port-pair';

/** What a stand-in host got: intents as they are, asks of the request line as `{ line: 'ask', id, type, request }`. */
interface Received {
  type: string;
  line?: string;
  id?: string | number;
  request?: unknown;
}

/** One stand-in agent host of {@link hostsOverPorts}. */
interface StandInHost {
  received: Received[];
  /** The host document goes (closed, crashed, restarted): the panel's Port drops. */
  restart(): void;
}

/**
 * A panel's real agent client over in-memory runtime Ports (lib/testing/agent-port-pair.ts) to one stand-in agent
 * host after another (mock of the host: it answers the bind with an empty snapshot, records everything else, and
 * answers only the asks `answer` gives an answer for: undefined holds it). For the dropped-line tests of the panel's slices: what a slice has
 * pending when its host goes must fail, not wait forever.
 */
export function hostsOverPorts(
  answer: { [T in keyof PanelAsks]?: (request: PanelAsks[T]['request']) => PanelAsks[T]['answer'] | undefined } = {},
) {
  const hosts: StandInHost[] = [];
  const client = createAgentClient({
    connect: () => {
      const { panel, host } = createAgentPortPair(AGENT_PORT_NAME);
      const received: Received[] = [];
      hosts.push({ received, restart: () => host.disconnect() });
      host.onMessage.addListener((message) => {
        const m = message as Received & { tabId?: number };
        received.push(m);
        if (m.type === 'panel/bind') {
          host.postMessage({
            type: 'panel/tab',
            snapshot: { tabId: m.tabId ?? 0, messages: [], running: false, confirmations: [], tools: [], toolsKnown: true },
          });
        }
        const answering = m.line === 'ask' ? (answer as Record<string, ((request: unknown) => unknown) | undefined>)[m.type] : undefined;
        const value = answering?.(m.request);
        if (value !== undefined) host.postMessage({ line: 'answer', id: m.id, answer: value } as never);
      });
      return panel;
    },
    retryDelayMs: 1,
  });
  /** Whether the newest host got something of this type (an intent, or an ask). */
  const got = (type: string) => hosts.at(-1)?.received.some((m) => m.type === type) ?? false;
  return { client, hosts, got };
}
