/**
 * The agent core's own speed, without a model: the loop's time per step with a provider that answers at once
 * (50 tools, 12 turns of history; target under 2 ms), rankTools for 10, 100 and 500 tools (target under 1 ms
 * for 500), and parseToolCalls throughput. Prints figures; asserts nothing.
 */
import { parseToolCalls } from '../lib/local-agent/parse-tool-calls';
import { rankTools } from '../lib/agent/rank-tools';
import { runLocalAgent } from '../lib/local-agent/run-local-agent';
import { createScriptedProvider } from '../lib/testing/scripted-provider';
import type { AgentMessage, AgentRunRequest, ToolDescriptor } from '../lib/agent/types';

const WORDS =
  'search product cart add remove order book table flight hotel date guest size colour price filter sort page review rating account address payment ship track return coupon wishlist compare stock store hours contact help category brand'.split(
    ' ',
  );

function makeTools(n: number): ToolDescriptor[] {
  return Array.from({ length: n }, (_, i) => {
    const a = WORDS[i % WORDS.length];
    const b = WORDS[(i * 7 + 3) % WORDS.length];
    return {
      name: `${a}_${b}_${i}`,
      title: `${a} ${b}`,
      description: `Lets the user ${a} the ${b}. Use it when they ask about ${WORDS[(i * 3) % WORDS.length]} or ${b}. Returns a JSON list of results with ids and names.`,
      inputSchema: {
        type: 'object',
        properties: {
          [`${b}Id`]: { type: 'string', description: `The ${b} id, from an earlier search.` },
          quantity: { type: 'integer', minimum: 1, maximum: 10 },
          size: { type: 'string', enum: ['Small', 'Medium', 'Large'] },
        },
        required: [`${b}Id`],
      },
    };
  });
}

function history(turns: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < turns - 1; i++) {
    messages.push(
      i % 2 === 0
        ? { id: `u${i}`, role: 'user', parts: [{ type: 'text', text: `Please find the ${WORDS[i % WORDS.length]} for me, size medium.` }] }
        : {
            id: `a${i}`,
            role: 'assistant',
            parts: [
              {
                type: 'tool',
                id: `c${i}`,
                name: 'search_product_0',
                input: { productId: `p${i}` },
                state: 'done',
                output: {
                  content: [
                    {
                      type: 'text',
                      text: JSON.stringify(Array.from({ length: 20 }, (_, k) => ({ id: `p${k}`, name: `Item ${k}`, price: k * 3 }))),
                    },
                  ],
                },
              },
              { type: 'text', text: 'I found 20 items.' },
            ],
          },
    );
  }
  messages.push({ id: 'last', role: 'user', parts: [{ type: 'text', text: 'Add the medium blue shoe to my cart and show the cart.' }] });
  return messages;
}

function stats(samples: number[]): string {
  const sorted = samples.slice().sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${fmt(at(0.5))}  p95 ${fmt(at(0.95))}  (n=${samples.length})`;
}

function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(3)} ms`;
}

async function benchLoop(tools: ToolDescriptor[], messages: AgentMessage[], label: string, freshTools: boolean): Promise<void> {
  const STEPS = 5;
  const runs = 200;
  const perStep: number[] = [];
  const cpuPerStep: number[] = [];
  for (let r = 0; r < runs + 20; r++) {
    const runTools = freshTools ? tools.map((t) => ({ ...t })) : tools;
    const replies = [
      ...Array.from(
        { length: STEPS - 1 },
        (_, i) =>
          `<tool_call>\n${JSON.stringify({ name: runTools[i].name, arguments: { [Object.keys((runTools[i].inputSchema as { properties: object }).properties)[0]]: `x${i}` } })}\n</tool_call>`,
      ),
      'Added the medium blue shoe; your cart has 2 items.',
    ];
    const provider = createScriptedProvider(replies, { fits: () => true });
    const req: AgentRunRequest = {
      messages,
      tools: runTools,
      signal: new AbortController().signal,
      callTool: async () => ({ content: [{ type: 'text', text: '{"ok":true,"message":"done"}' }] }),
    };
    const cpu = process.cpuUsage();
    const start = performance.now();
    let steps = 0;
    for await (const part of runLocalAgent(provider, req)) if (part.type === 'step-finish') steps++;
    const elapsed = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (r >= 20) {
      perStep.push(elapsed / steps);
      cpuPerStep.push((used.user + used.system) / 1000 / steps);
    }
  }
  console.log(`loop per step, ${label}: wall ${stats(perStep)}   target < 2 ms`);
  // CPU time leaves out waiting for a core: on a shared machine it is the loop's own cost.
  console.log(`loop per step, ${label}: cpu  ${stats(cpuPerStep)}`);
}

function benchRank(n: number): void {
  const tools = makeTools(n);
  const query = 'add the medium blue shoe to my cart please';
  const warm: number[] = [];
  const cold: number[] = [];
  // Separate loops: the copies made for the cold case would otherwise put their garbage collection on the warm one.
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    rankTools(tools, query, { max: 8, recent: [tools[3].name] });
    warm.push(performance.now() - start);
  }
  const copies = Array.from({ length: 300 }, () => tools.map((t) => ({ ...t, inputSchema: { ...t.inputSchema } })));
  for (const fresh of copies) {
    const start = performance.now();
    rankTools(fresh, query, { max: 8, recent: [tools[3].name] });
    cold.push(performance.now() - start);
  }
  console.log(
    `rankTools ${String(n).padStart(3)} tools: same snapshot ${stats(warm.slice(20))} | new, equal objects ${stats(cold.slice(20))}`,
  );
}

function benchParse(): void {
  const fixtures = [
    '<think>\nThe user wants shoes. Search first.\n</think>\n\n<tool_call>\n{"name": "search_product_0", "arguments": {"productId": "blue shoe"}}\n</tool_call>',
    '<|tool_call_start|>[search_product_0(productId="p1", quantity=2, size="Medium")]<|tool_call_end|>Adding it.',
    '<|python_tag|>{"name": "search_product_0", "parameters": {"productId": "p1"}}',
    'functools[{"name": "search_product_0", "arguments": {"productId": "p1"}}]',
    'Sure.\n```json\n{"name": "search_product_0", "arguments": {"productId": "p1"}}\n```',
    '**Thought:** look it up\n**Action:** search_product_0\n**Action Input:** {"productId": "p1"}\nObservation: made up',
    'Your cart has two items: the blue shoe (Medium) and a pair of socks. The total is 42 EUR.',
    "<tool_call>\n{'name': 'search_product_0', 'arguments': {'productId': 'p1',}}\n",
  ];
  const tools = makeTools(50);
  const bytes = fixtures.reduce((n, f) => n + f.length, 0);
  for (let i = 0; i < 2000; i++) for (const f of fixtures) parseToolCalls(f, tools);
  const rounds = 20_000;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) for (const f of fixtures) parseToolCalls(f, tools);
  const ms = performance.now() - start;
  const replies = rounds * fixtures.length;
  console.log(
    `parseToolCalls: ${Math.round(replies / (ms / 1000)).toLocaleString('en')} replies/s, ${((rounds * bytes) / 1e6 / (ms / 1000)).toFixed(1)} MB/s, ${fmt(ms / replies)} per reply (mix of ${fixtures.length} formats)`,
  );
  const long = `${'Prose with {braces} and [brackets] and "quotes". '.repeat(400)}<tool_call>{"name": "search_product_0", "arguments": {"productId": "p1"}}</tool_call>`;
  const t = performance.now();
  for (let i = 0; i < 500; i++) parseToolCalls(long, tools);
  console.log(`parseToolCalls, a ${Math.round(long.length / 1000)} kB reply: ${fmt((performance.now() - t) / 500)} per reply`);
}

const tools50 = makeTools(50);
const messages12 = history(12);
await benchLoop(tools50, messages12, '50 tools, 12 turns, same tool snapshot', false);
await benchLoop(tools50, messages12, '50 tools, 12 turns, new tool objects every run', true);
for (const n of [10, 100, 500]) benchRank(n);
benchParse();
