/**
 * The page side of bench/local-kv.bench.ts, in an extension page (as the offscreen document would be): the engine
 * Worker of the browser check, then for each family's test model one three-step turn of the real agent loop (call,
 * call, answer), recording what each step's prompt held and how much of it the KV cache already had. Then the step-1
 * prompt for the demo shop's tools and for a generated 30-tool page. Results on window.__result.
 */
import { PRODUCTS } from '../../demo/catalog.js';
import { productTools, siteTools } from '../../demo/tools.js';
import type { GenerateRequest, LocalProvider } from '../../lib/agent/local-provider';
import { runLocalAgent } from '../../lib/local-agent/run-local-agent';
import type { ToolDescriptor } from '../../lib/agent/types';
import { connectTransformersEngine } from '../../lib/local/connect-transformers-engine';
import type { EnginePort } from '../../lib/local/engine-messages';
import { modelCatalog } from '../../lib/local/model-catalog';

declare const chrome: { runtime: { getURL: (path: string) => string } };

const params = new URLSearchParams(location.search);
const worker = new Worker(new URL('../../tests/model/browser-check/worker.ts', import.meta.url), { type: 'module' });
const client = connectTransformersEngine(worker as unknown as EnginePort, {
  remoteHost: params.get('host') ?? '',
  wasmPaths: { wasm: chrome.runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.wasm') },
  idleUnloadMs: 0,
});

const shopTools: ToolDescriptor[] = [
  {
    name: 'search',
    description: 'Search the shop.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  { name: 'add_to_cart', description: 'Add to cart.', inputSchema: { type: 'object', properties: { quantity: { type: 'integer' } } } },
];

/** A page with 30 tools of realistic size: a verb, an object, two or three described parameters. */
function thirtyTools(): ToolDescriptor[] {
  const verbs = ['list', 'get', 'create', 'update', 'delete', 'search'];
  const things = ['invoice', 'customer', 'order', 'product', 'shipment'];
  return verbs.flatMap((verb) =>
    things.map((thing) => ({
      name: `${verb}_${thing}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${thing} in the back office; answers with its fields as JSON.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: `The ${thing} id, for example "${thing}-42".` },
          note: { type: 'string', description: 'Free text kept with the change.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'At most this many results.' },
        },
        required: ['id'],
      },
    })),
  );
}

const stepsOf = async (modelId: string, tools: ToolDescriptor[], request: string, results: string[], maxSteps = 3) => {
  const spec = { ...(modelCatalog.find((m) => m.id === modelId) as (typeof modelCatalog)[number]), bytes: { q4: 1, q4f16: 1 } };
  const p = client.provider(spec);
  await p.prepare(() => {});
  const steps: { promptTokens: number; reusedTokens: number; newTokens: number; firstTokenMs: number }[] = [];
  const recording: LocalProvider = {
    id: p.id,
    toolsInline: p.toolsInline,
    callFormat: p.callFormat,
    prepare: p.prepare,
    fits: p.fits,
    generate: async (req: GenerateRequest) => {
      const text = await p.generate(req);
      const s = p.lastGeneration;
      if (s)
        steps.push({
          promptTokens: s.promptTokens,
          reusedTokens: s.reusedTokens,
          newTokens: s.newTokens,
          firstTokenMs: Math.round(s.firstTokenMs),
        });
      return text;
    },
  };
  let n = 0;
  const stop = new AbortController();
  const counted: LocalProvider = {
    ...recording,
    generate: async (req) => {
      const text = await recording.generate(req);
      if (steps.length >= maxSteps) stop.abort();
      return text;
    },
  };
  for await (const _ of runLocalAgent(counted, {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: request }] }],
    tools,
    signal: stop.signal,
    callTool: async () => ({ content: [{ type: 'text', text: results[n++] ?? 'done' }] }),
  })) {
    // The parts are not needed: the figures are the provider's.
  }
  await p.unload();
  return steps;
};

(async () => {
  const out: Record<string, unknown> = {};
  try {
    out.device = await client.provider(modelCatalog[0]).device();
    const turns: Record<string, unknown> = {};
    for (const id of (params.get('models') ?? '').split(',').filter(Boolean)) {
      turns[id] = await stepsOf(id, shopTools, 'Find socks and add one', ['FOUNDIT red socks', 'added']);
    }
    out.turns = turns;
    const firstModel = modelCatalog[0].id;
    // The shop's tools on a product page, as the page declares them (their execute functions left out).
    const demo = [...siteTools({} as never), ...productTools(PRODUCTS[0])].map((t: ToolDescriptor) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }));
    out.demoTools = demo.length;
    out.demoStep1 = (await stepsOf(firstModel, demo, 'Find a linen shirt', [], 1))[0];
    out.thirtyStep1 = (await stepsOf(firstModel, thirtyTools(), 'Update the note on invoice-42', [], 1))[0];
  } catch (e) {
    out.error = String((e as Error)?.stack ?? e);
  }
  (window as unknown as { __result: unknown }).__result = out;
  document.title = 'done';
})();
