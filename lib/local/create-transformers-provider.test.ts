import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestModel, type TestModelScript } from '../../scripts/make-test-model';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { type ModelHost, startModelHost } from '../../tests/servers/model-host';
import type { ChatTurn } from '../agent/local-provider';
import type { ToolDescriptor } from '../agent/types';
import { callBlock, flattenHistory } from '../agent/build-history';
import { parseToolCalls } from '../agent/parse-tool-calls';
import {
  createTransformersProvider,
  toTemplateMessages,
  type TransformersProviderOptions,
} from './create-transformers-provider';
import { type LocalModelSpec, modelCatalog, recommendedModel } from './model-catalog';

// The real transformers.js path on onnxruntime-node, against the scripted test model served over loopback HTTP.

const CALL = '<tool_call>\n{"name": "search", "arguments": {"query": "socks"}}\n</tool_call>';
const script: TestModelScript = {
  reply: CALL,
  afterToolResult: 'Found 3 pairs of socks.',
  triggers: [
    { word: 'ramble', reply: 'and so on, ', loop: true },
    { word: 'chatty', reply: `${CALL} and then some words after the call.` },
  ],
  contextTokens: 4096,
};
const files = buildTestModel(script);
const modelFile = 'onnx/model_q4.onnx';
const modelBytes = (files.get(modelFile) as Uint8Array).byteLength;

const tools: ToolDescriptor[] = [
  {
    name: 'search',
    description: 'Search the shop for products by keyword.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
];
const user = (content: string): ChatTurn => ({ role: 'user', content });
const system: ChatTurn = { role: 'system', content: 'You are a shopping assistant.' };
const afterCall: ChatTurn[] = [
  {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: { query: 'socks' } } }],
  },
  { role: 'tool', content: '3 results: red, blue, green', tool_call_id: 'c1', name: 'search' },
];

let host: ModelHost;
let counter = 0;

/** A fresh model id (so the library's per-file memos never mix scenarios), served by the host. */
function spec(overrides: Partial<LocalModelSpec> = {}): LocalModelSpec {
  const id = `test/scripted-${counter++}`;
  host.addModel(id, files);
  return {
    id,
    label: 'Scripted',
    brief: 'Test model.',
    bytes: { q4: modelBytes },
    callFormat: 'template',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 4096,
    hardware: 'Any.',
    ...overrides,
  };
}

function provider(model: LocalModelSpec, options: Partial<TransformersProviderOptions> = {}) {
  return createTransformersProvider({
    model,
    facts: { cpuDevice: 'cpu' },
    remoteHost: host.url,
    cache: createMemoryModelCache(),
    idleUnloadMs: 0,
    retryDelayMs: 5,
    ...options,
  });
}

const signal = () => new AbortController().signal;

beforeAll(async () => {
  host = await startModelHost();
});
afterAll(async () => {
  await host.close();
});

describe('createTransformersProvider', () => {
  it('defaults to the catalog’s recommended model, as seed 000 calls it', () => {
    const p = createTransformersProvider();
    expect(p.id).toBe(recommendedModel().id);
    expect(p.callFormat).toBe('template');
    expect(p.toolsInline).toBe(false);
    expect(p.loaded).toBe(false);
  });

  it('downloads from the model host with progress from 0 to 1, then reads the cache', async () => {
    const model = spec();
    const cache = createMemoryModelCache();
    const p = provider(model, { cache });
    expect(await p.isCached()).toBe(false);
    const progress: number[] = [];
    await p.prepare((v) => progress.push(v));
    expect(p.loaded).toBe(true);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.some((v) => v > 0 && v < 1)).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(host.downloads(`${model.id}/${modelFile}`)).toBe(1);
    expect(await p.isCached()).toBe(true);

    const again = provider(model, { cache });
    expect(await again.isCached()).toBe(true);
    await again.prepare(() => {});
    expect(host.downloads(`${model.id}/${modelFile}`)).toBe(1);
    expect(host.downloads(`${model.id}/tokenizer.json`)).toBe(1);
  });

  it('knows a downloaded model is cached, loads and deletes it while the model host is unreachable', async () => {
    const model = spec();
    const cache = createMemoryModelCache();
    await provider(model, { cache }).prepare(() => {});
    const requests = host.requests.length;
    const offline = provider(model, {
      cache,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    expect(await offline.isCached()).toBe(true);
    expect(await offline.storedBytes()).toBeGreaterThan(modelBytes);
    expect(await offline.generate({ messages: [user('find socks')], signal: signal() })).toBe(CALL);
    await offline.deleteModel();
    expect(await offline.isCached()).toBe(false);
    expect(host.requests.length).toBe(requests);
  });

  it('renders the tools through the chat template and generates a tool call, stopping at its end marker', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const reply = await p.generate({ messages: [system, user('find socks')], tools, signal: signal() });
    expect(reply).toBe(CALL);

    // Without the end marker the same model keeps talking after the call; with it, generation stops right there.
    const chatty = await p.generate({ messages: [system, user('be chatty')], tools, signal: signal() });
    expect(chatty).toBe(CALL);
    const unmarked = provider(spec({ toolCallEnd: undefined }));
    await unmarked.prepare(() => {});
    const full = await unmarked.generate({ messages: [system, user('be chatty')], tools, signal: signal() });
    expect(full).toBe(`${CALL} and then some words after the call.`);
  });

  it('answers after a tool result, reusing the KV cache when the prompt extends it exactly', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const history = [system, user('find socks')];
    await p.generate({ messages: history, tools, signal: signal() });
    const first = p.lastGeneration;
    const answer = await p.generate({ messages: [...history, ...afterCall], tools, signal: signal() });
    expect(answer).toBe('Found 3 pairs of socks.');
    const second = p.lastGeneration;
    expect(second?.reusedTokens).toBe((first?.promptTokens ?? 0) + (first?.newTokens ?? 0) - 1);

  });

  it('keeps only the prefix a diverging prompt shares with the cache', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const answer = await p.generate({ messages: [system, user('find socks'), ...afterCall], tools, signal: signal() });
    expect(answer).toBe('Found 3 pairs of socks.');
    // Same start, but the tool result is gone: had the cache kept it, the model would answer instead of calling.
    const diverged = [system, user('find socks'), afterCall[0], user('never mind, find shoes')];
    expect(await p.generate({ messages: diverged, tools, signal: signal() })).toBe(CALL);
    const stats = p.lastGeneration;
    expect(stats?.reusedTokens).toBeGreaterThan(0);
    expect(stats?.reusedTokens).toBeLessThan(stats?.promptTokens ?? 0);
    // The same prompt again still leaves a token to feed.
    expect(await p.generate({ messages: diverged, tools, signal: signal() })).toBe(CALL);
    expect(p.lastGeneration?.reusedTokens).toBe((stats?.promptTokens ?? 0) - 1);
  });

  it('stops within one token when the signal aborts', async () => {
    const p = provider(spec());
    await p.prepare(() => {});
    const controller = new AbortController();
    let seen = '';
    const run = p.generate({
      messages: [system, user('please ramble')],
      maxNewTokens: 4000,
      signal: controller.signal,
      onText: (delta) => {
        seen += delta;
        if (!controller.signal.aborted) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // The streamer flushes at word ends: the abort came with the first word, one byte per token here.
    expect(seen).toBe('and ');
    expect(p.lastGeneration?.newTokens).toBeLessThanOrEqual(seen.length + 1);

    const aborted = new AbortController();
    aborted.abort();
    await expect(p.generate({ messages: [user('hi')], signal: aborted.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    // The engine is free again afterwards.
    expect(await p.generate({ messages: [user('hi')], signal: signal() })).toBe(CALL);
  });

  it('fits counts the templated prompt, tools included, plus the reply budget, to the token', async () => {
    const p = provider(spec({ contextTokens: 2000 }));
    await p.prepare(() => {});
    const messages = [system, user('find socks')];
    await p.generate({ messages, tools, maxNewTokens: 1, signal: signal() });
    const withTools = p.lastGeneration?.promptTokens ?? 0;
    await p.generate({ messages, maxNewTokens: 1, signal: signal() });
    const withoutTools = p.lastGeneration?.promptTokens ?? 0;
    expect(withTools).toBeGreaterThan(withoutTools);

    expect(await p.fits({ messages, tools, maxNewTokens: 2000 - withTools })).toBe(true);
    expect(await p.fits({ messages, tools, maxNewTokens: 2000 - withTools + 1 })).toBe(false);
    expect(await p.fits({ messages, maxNewTokens: 2000 - withoutTools })).toBe(true);
    expect(await p.fits({ messages, maxNewTokens: 2000 - withoutTools + 1 })).toBe(false);
  });

  it('resumes a file where the connection dropped, without fetching its first part again', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    const half = Math.floor(modelBytes / 2);
    // Cut at half, then the resumed request cut again a half later: it made progress, so it is resumed again.
    host.failNext(`${model.id}/${modelFile}`, half, 2);
    const progress: number[] = [];
    await p.prepare((v) => progress.push(v));
    expect(p.loaded).toBe(true);
    expect(host.requests.filter((r) => r.path.endsWith(`${model.id}/${modelFile}`)).map((r) => r.range)).toContain(
      `bytes=${half}-`,
    );
    expect(host.bytesSent(`${model.id}/${modelFile}`)).toBe(modelBytes);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await p.generate({ messages: [user('find socks')], signal: signal() })).toBe(CALL);
  });

  it('retries a connection that drops before the host answers', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    host.failNext(`${model.id}/${modelFile}`, -1);
    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
    expect(host.downloads(`${model.id}/${modelFile}`)).toBe(2);
  });

  it('after a download that failed for good, starts again without fetching finished files', async () => {
    const model = spec();
    const p = provider(model, { downloadRetries: 1 });
    // The host answers, then drops before a byte, twice: one reconnection without progress is allowed.
    host.failNext(`${model.id}/${modelFile}`, 0, 2);
    await expect(p.prepare(() => {})).rejects.toThrow();
    expect(p.loaded).toBe(false);
    expect(await p.isCached()).toBe(false);

    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
    expect(host.downloads(`${model.id}/${modelFile}`)).toBe(3);
    expect(host.downloads(`${model.id}/tokenizer.json`)).toBe(1);
    expect(host.downloads(`${model.id}/config.json`)).toBe(1);
  });

  it('cancels a download, then starts again on request', async () => {
    const model = spec();
    const p = provider(model);
    host.slow(`${model.id}/${modelFile}`, { chunkBytes: 256, delayMs: 20 });
    const controller = new AbortController();
    const run = p.prepare((v) => {
      if (v > 0.5 && !controller.signal.aborted) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(p.loaded).toBe(false);
    host.slow(`${model.id}/${modelFile}`);
    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
  });

  it('keeps counting and cancelling a download while another model of the same context is asked about', async () => {
    const model = spec();
    const other = provider(spec());
    const p = provider(model);
    // Slow enough that the other provider touches transformers.js's shared settings between two files.
    host.slow(`${model.id}/tokenizer.json`, { chunkBytes: 1024, delayMs: 20 });
    host.slow(`${model.id}/${modelFile}`, { chunkBytes: 256, delayMs: 10 });
    const controller = new AbortController();
    const progress: number[] = [];
    let asked = false;
    const run = p.prepare((v) => {
      progress.push(v);
      if (v > 0 && !asked) {
        asked = true;
        void other.isCached();
      }
      if (v > 0.75 && v < 0.99) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    host.slow(`${model.id}/tokenizer.json`);
    host.slow(`${model.id}/${modelFile}`);
    // The model file (fetched after the other provider's call) was still counted byte by byte, and cancelled.
    expect(progress.filter((v) => v > 0.6 && v < 0.99).length).toBeGreaterThan(3);
    expect(p.loaded).toBe(false);
  });

  it('deletes the model from the cache and unloads after being idle', async () => {
    let unloaded = 0;
    const p = provider(spec(), { idleUnloadMs: 50, onUnload: () => unloaded++ });
    await p.prepare(() => {});
    expect(p.loaded).toBe(true);
    for (let waited = 0; p.loaded && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(p.loaded).toBe(false);
    expect(unloaded).toBe(1);
    // The next generation loads it again from the cache.
    expect(await p.generate({ messages: [user('find socks')], signal: signal() })).toBe(CALL);
    expect(await p.isCached()).toBe(true);
    await p.deleteModel();
    expect(p.loaded).toBe(false);
    expect(await p.isCached()).toBe(false);
  });
});

describe('each catalog family’s call format, through its own template structure', () => {
  // One scripted model per family, replying in that family's format; the catalog's own settings for the family
  // (stop marker, history style, thinking off) drive it, and the real parser reads its calls.
  const families = [
    {
      family: 'qwen3' as const,
      catalogId: 'onnx-community/Qwen3-0.6B-ONNX',
      call: '<tool_call>\n{"name": "search", "arguments": {"query": "socks", "limit": 2}}\n</tool_call>',
    },
    {
      family: 'qwen3.5' as const,
      catalogId: 'onnx-community/Qwen3.5-0.8B-ONNX',
      call: '<tool_call>\n<function=search>\n<parameter=query>\nsocks\n</parameter>\n<parameter=limit>\n2\n</parameter>\n</function>\n</tool_call>',
    },
    {
      family: 'lfm' as const,
      catalogId: 'LiquidAI/LFM2.5-1.2B-Instruct-ONNX',
      call: '<|tool_call_start|>[search(query="socks", limit=2)]<|tool_call_end|>',
    },
  ];
  const searchTool: ToolDescriptor = {
    name: 'search',
    description: 'Search the shop for products by keyword.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      required: ['query'],
    },
  };

  for (const { family, catalogId, call } of families) {
    it(`${family}: writes the call, reads it back, renders it into history, and answers with the cache reused`, async () => {
      const catalogSpec = modelCatalog.find((m) => m.id === catalogId) as LocalModelSpec;
      const id = `test/${family}-${counter++}`;
      const familyFiles = buildTestModel({ reply: call, afterToolResult: 'Found 2 pairs.', family, contextTokens: 4096 });
      host.addModel(id, familyFiles);
      const p = provider({ ...catalogSpec, id, bytes: { q4: 1 }, revision: undefined });
      await p.prepare(() => {});

      const history: ChatTurn[] = [system, user('find two socks')];
      const reply = await p.generate({ messages: history, tools: [searchTool], signal: signal() });
      expect(reply).toBe(call);
      const parsed = parseToolCalls(reply, [searchTool]);
      expect(parsed.calls.map((c) => [c.name, c.input])).toEqual([['search', { query: 'socks', limit: 2 }]]);
      const first = p.lastGeneration;

      const turns = flattenHistory(
        [callBlock('template', parsed.text, [{ id: 'c1', name: 'search', input: parsed.calls[0].input, result: '2 results' }])],
        'template',
      );
      const answer = await p.generate({ messages: [...history, ...turns], tools: [searchTool], signal: signal() });
      expect(answer).toBe('Found 2 pairs.');
      // The history renders the call exactly as the model wrote it, so the whole first generation is reused.
      expect(p.lastGeneration?.reusedTokens).toBe((first?.promptTokens ?? 0) + (first?.newTokens ?? 0) - 1);
    });
  }

  it('lfm: the template never sees tool_calls, only the call written as the model writes it', () => {
    const turns = toTemplateMessages(
      [
        {
          role: 'assistant',
          content: 'Looking.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'f', arguments: { a: 'x "q"', n: 1.5, b: true, z: null, l: [1, 'y'], o: { k: false } } } },
            { id: 'c2', type: 'function', function: { name: 'g', arguments: {} } },
          ],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'f' },
      ],
      'pythonic',
    );
    expect(turns[0]).toEqual({
      role: 'assistant',
      content:
        'Looking.<|tool_call_start|>[f(a="x \\"q\\"", n=1.5, b=True, z=None, l=[1, "y"], o={"k": False}), g()]<|tool_call_end|>',
    });
    expect(turns[1]).toEqual({ role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'f' });
    // And the parser reads what history wrote back to the same call.
    const back = parseToolCalls(String(turns[0].content), [{ name: 'f' }, { name: 'g' }]);
    expect(back.calls.map((c) => c.input)).toEqual([{ a: 'x "q"', n: 1.5, b: true, z: null, l: [1, 'y'], o: { k: false } }, {}]);
  });
});
