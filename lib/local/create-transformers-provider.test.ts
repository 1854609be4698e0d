import { describe, expect, it } from 'vitest';
import { CALL, modelBytes, modelFile, signal, system, tools, useScriptedModelHost, user } from '../../tests/model/scripted-model-fixture';
import type { ChatTurn } from '../agent/local-provider';
import type { ToolDescriptor } from '../agent/types';
import { callBlock, flattenHistory } from '../local-agent/build-history';
import { parseToolCalls } from '../local-agent/parse-tool-calls';
import { buildTestModel } from '../../scripts/make-test-model';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { createTransformersProvider } from './create-transformers-provider';
import { type LocalModelSpec, modelCatalog, recommendedModel } from './model-catalog';

// The real transformers.js path on onnxruntime-node, against the scripted test model served over loopback HTTP.

const models = useScriptedModelHost();
const { spec, provider } = models;
describe('createTransformersProvider', () => {
  it('defaults to the catalog’s recommended model, as the on-device loop calls it', () => {
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
    expect(models.host.downloads(`${model.id}/${modelFile}`)).toBe(1);
    expect(await p.isCached()).toBe(true);

    const again = provider(model, { cache });
    expect(await again.isCached()).toBe(true);
    await again.prepare(() => {});
    expect(models.host.downloads(`${model.id}/${modelFile}`)).toBe(1);
    expect(models.host.downloads(`${model.id}/tokenizer.json`)).toBe(1);
  });

  it('knows a downloaded model is cached, loads and deletes it while the model host is unreachable', async () => {
    const model = spec();
    const cache = createMemoryModelCache();
    await provider(model, { cache }).prepare(() => {});
    const requests = models.host.requests.length;
    const offline = provider(model, {
      cache,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    expect(await offline.isCached()).toBe(true);
    expect(await offline.storedBytes()).toBeGreaterThan(modelBytes);
    expect(await offline.generate({ messages: [user('find socks')], signal: signal() })).toBe(CALL);
    await offline.deleteModel();
    expect(await offline.isCached()).toBe(false);
    expect(models.host.requests.length).toBe(requests);
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
      const id = models.nextId(family);
      const familyFiles = buildTestModel({ reply: call, afterToolResult: 'Found 2 pairs.', family, contextTokens: 4096 });
      models.host.addModel(id, familyFiles);
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
});
