/**
 * Cloud mode's own overhead, measured against the loopback provider server (so the network and the model are
 * out of the figures): a two-step run (a tool call, then an answer) through each real provider package, and
 * the conversion of a long stored conversation into model messages. Prints figures; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import type { AgentMessage, AgentStreamPart } from '../lib/agent/types';
import type { CloudSettings } from '../lib/cloud/cloud-settings';
import { createCloudAdapter } from '../lib/cloud/create-cloud-adapter';
import { toModelMessages } from '../lib/cloud/to-model-messages';
import { startProviderServer } from '../tests/servers/provider-server';

// The loopback model id is unknown to the SDK, which warns once per request; the figures are what this prints.
(globalThis as any).AI_SDK_LOG_WARNINGS = false;

const RUNS = 40;
const server = await startProviderServer();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const [label, provider, extra] of [
  ['openai (Responses)', 'openai', {}],
  ['openai (Chat Completions)', 'openai', { openaiApi: 'chat' }],
  ['anthropic', 'anthropic', {}],
  ['openai-compatible', 'openai-compatible', {}],
] as const) {
  const settings: CloudSettings = { provider, model: 'bench-model', apiKey: 'sk-bench-0000000000', baseURL: `${server.url}/v1`, ...extra };
  const adapter = createCloudAdapter(settings, { fetch, maxRetries: 0 });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    server.reset();
    server.script(
      { type: 'reply', reasoning: { text: 'Check the cart.', signature: 'sig' }, toolCalls: [{ name: 'get_cart', input: {} }] },
      { type: 'reply', text: 'Your cart has two blue mugs, €18.00 in total.' },
    );
    const started = performance.now();
    const parts: AgentStreamPart[] = [];
    for await (const part of adapter.run({
      messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'What is in my cart?' }] }],
      tools: [{ name: 'get_cart', description: 'Read the cart', inputSchema: { type: 'object', properties: {} } }],
      signal: new AbortController().signal,
      callTool: async () => ({ content: [{ type: 'text', text: '{"lines":2}' }] }),
    })) {
      parts.push(part);
    }
    times.push(performance.now() - started);
    if (parts.at(-1)?.type !== 'finish') throw new Error(`${label}: run ended with ${JSON.stringify(parts.at(-1))}`);
  }
  console.log(
    `${label.padEnd(28)} two-step run over loopback: median ${median(times.slice(5)).toFixed(1)} ms (${RUNS} runs, first 5 skipped)`,
  );
}
await server.close();

const history: AgentMessage[] = [];
for (let i = 0; i < 100; i++) {
  history.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: `Request ${i}` }] });
  history.push({
    id: `a${i}`,
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'Thinking '.repeat(20), providerMetadata: { anthropic: { signature: 'x'.repeat(200) } } },
      {
        type: 'tool',
        id: `c${i}`,
        name: 'search.products',
        input: { q: i },
        state: 'done',
        output: { content: [{ type: 'text', text: 'r'.repeat(1500) }] },
      },
      { type: 'text', text: 'Done '.repeat(30) },
    ],
  });
}
const convert: number[] = [];
for (let i = 0; i < 50; i++) {
  const started = performance.now();
  toModelMessages(history);
  convert.push(performance.now() - started);
}
console.log(`toModelMessages, 200 stored messages (100 turns with reasoning and a call): median ${median(convert).toFixed(2)} ms`);
