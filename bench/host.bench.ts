/**
 * The agent host's cost while a reply streams, without a model: a scripted adapter streams text deltas (2,000 unpaced, then 300 paced
 * at one per 5 ms) into a conversation that already holds 40 turns with tool results, through the real host, a real panel client over an
 * in-memory Port pair, and in-memory storage. Prints the host's time per part (target under 0.1 ms), how many
 * snapshots reached the panel (batched: target at most one per 30 ms) and their size, and how many conversation
 * writes were made (batched: target one per 250 ms, plus the flush when the reply ends). Asserts nothing.
 */
import type { AgentAdapter, AgentMessage, AgentStreamPart } from '../lib/agent/types';
import { createAdapterRegistry } from '../lib/host/create-adapter-registry';
import type { HostPort } from '../lib/host/agent-host-deps';
import { createAgentHost } from '../lib/host/create-agent-host';
import { createAgentClient } from '../lib/messaging/agent-client';
import { AGENT_PORT_NAME, type HostEvent } from '../lib/messaging/agent-messages';
import { createAgentPortPair } from '../lib/testing/agent-port-pair';
import { createMemoryStorageArea } from '../lib/testing/memory-storage-area';
import { createSettingsStore } from '../lib/storage/settings-store';

const DELTAS = 2000;
const DELTA = 'word ';

function history(turns: number): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: `Find product number ${i} in medium.` }] });
    out.push({
      id: `a${i}`,
      role: 'assistant',
      parts: [
        {
          type: 'tool',
          id: `c${i}`,
          name: 'search_products',
          input: { query: `product ${i}` },
          state: 'done',
          output: {
            content: [
              {
                type: 'text',
                text: JSON.stringify({
                  results: Array.from({ length: 8 }, (_, k) => ({ id: `p${k}`, name: `Product ${k}`, price: '$12.00' })),
                }),
              },
            ],
          },
        },
        { type: 'text', text: `Here is product ${i}: it costs $12.00 and comes in three sizes.` },
      ],
    });
  }
  return out;
}

/** Paced: one delta every `paceMs` (a model streaming); unpaced: as fast as the host takes them (its own cost). */
let paceMs = 0;
let runNo = 0;
const adapter: AgentAdapter = {
  id: 'scripted',
  label: 'Scripted (bench)',
  async *run(): AsyncGenerator<AgentStreamPart> {
    const id = `reply-${++runNo}`;
    yield { type: 'message-start', messageId: id };
    const count = paceMs ? PACED_DELTAS : DELTAS;
    for (let i = 0; i < count; i++) {
      yield { type: 'text-delta', messageId: id, delta: DELTA };
      if (paceMs) await new Promise((r) => setTimeout(r, paceMs));
      else if (i % 50 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    yield { type: 'finish', reason: 'stop' };
  },
};
const PACED_DELTAS = 300;

const local = createMemoryStorageArea();
let writes = 0;
const counted = {
  ...local,
  set: (items: Record<string, unknown>) => {
    if (Object.keys(items).some((k) => k.startsWith('conversation:'))) writes++;
    return local.set(items);
  },
};
const session = createMemoryStorageArea({ browserSession: 'bench' });
await local.set({
  conversations: [{ key: 'k', tabId: 1, session: 'bench', updatedAt: Date.now() }],
  'conversation:k': { messages: history(20) },
});
const connect = new Set<(port: HostPort) => void>();
createAgentHost({
  bridge: {
    getTools: async (tabId) => ({ tabId, tools: [], page: { url: 'https://shop.test/' } }),
    callTool: async () => ({ content: [] }),
    subscribe: () => () => {},
  },
  settings: createSettingsStore({ local }),
  adapters: createAdapterRegistry([{ kind: 'local', create: () => adapter }]),
  storage: { local: counted, session },
  onConnect: { addListener: (l) => void connect.add(l) },
});
const client = createAgentClient({
  connect: () => {
    const pair = createAgentPortPair(AGENT_PORT_NAME);
    for (const l of connect) l(pair.host);
    return pair.panel;
  },
});
let snapshots: number[] = [];
let done: () => void = () => {};
let started = 0;
client.subscribe((event: HostEvent) => {
  if (event.type !== 'tab' || !started) return;
  snapshots.push(JSON.stringify(event.snapshot).length);
  if (event.snapshot.lastRun && !event.snapshot.running) done();
});
client.send({ type: 'bind', tabId: 1 });
await new Promise((r) => setTimeout(r, 50));

async function reply(pace: number) {
  paceMs = pace;
  snapshots = [];
  writes = 0;
  const finished = new Promise<void>((r) => {
    done = r;
  });
  started = performance.now();
  client.send({ type: 'send', tabId: 1, text: 'Tell me a long story' });
  await finished;
  const ms = performance.now() - started;
  started = 0;
  return ms;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const burst = await reply(0);
console.log(`history: 40 turns with tool results`);
console.log(`host time per part (${DELTAS} deltas, unpaced): ${((burst / DELTAS) * 1000).toFixed(1)} µs (target < 100 µs)`);
const paced = await reply(5);
console.log(`paced stream: ${PACED_DELTAS} deltas over ${(paced / 1000).toFixed(2)} s`);
console.log(
  `  snapshots to the panel: ${snapshots.length} (${(snapshots.length / (paced / 1000)).toFixed(1)}/s, target <= 33/s), last ${kb(snapshots.at(-1) ?? 0)}`,
);
console.log(`  conversation writes: ${writes} (${(writes / (paced / 1000)).toFixed(1)}/s, target: one per 250 ms plus the final flush)`);
client.close();
process.exit(0);
