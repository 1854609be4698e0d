import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestModel } from '../../scripts/make-test-model';
import { createMemoryModelCache, type MemoryModelCache } from '../../tests/model/memory-model-cache';
import { type ModelHost, startModelHost } from '../../tests/servers/model-host';
import type { AdapterStatus, AgentRunRequest, AgentStreamPart, ToolCall } from '../agent/types';
import type { DeviceFacts } from './choose-device';
import { createLocalAdapter, type LocalAdapter, NO_WEBGPU_NOTE, PROMPT_API_MODEL_ID } from './create-local-adapter';
import { createPromptApiProvider, NO_PROMPT_API } from './create-prompt-api-provider';
import { connectTransformersEngine, ENGINE_STOPPED } from './connect-transformers-engine';
import { createTransformersProvider } from './create-transformers-provider';
import type { EnginePort } from './engine-messages';
import type { LocalModelSpec } from './model-catalog';

// The adapter over the real engine and the real loop, with the scripted model from a loopback model host.

const files = buildTestModel({
  reply: '<tool_call>\n{"name": "search", "arguments": {"query": "socks"}}\n</tool_call>',
  afterToolResult: 'Found 3 pairs of socks.',
});
const modelBytes = (files.get('onnx/model_q4.onnx') as Uint8Array).byteLength;
/** What a q4 load keeps: the configs, the tokenizer and the q4 weights (not onnx/model.onnx). */
const storedSize = [...files]
  .filter(([path]) => path !== 'onnx/model.onnx')
  .reduce((n, [, f]) => n + (typeof f === 'string' ? Buffer.byteLength(f) : f.byteLength), 0);
let host: ModelHost;
let counter = 0;

function catalog(): LocalModelSpec[] {
  const n = counter++;
  const spec = (name: string, recommended: boolean): LocalModelSpec => {
    const id = `test/adapter-${n}-${name}`;
    host.addModel(id, files);
    return {
      id,
      label: name,
      brief: `The ${name} test model.`,
      bytes: { q4f16: 1, q4: modelBytes },
      callFormat: 'template',
      toolsInline: false,
      toolCallEnd: '</tool_call>',
      contextTokens: 4096,
      recommended,
      hardware: 'Any.',
    };
  };
  return [spec('small', true), spec('large', false)];
}

function adapter(
  models: LocalModelSpec[],
  cache: MemoryModelCache,
  extra: { facts?: DeviceFacts; modelId?: string; promptApi?: ReturnType<typeof createPromptApiProvider> } = {},
): LocalAdapter {
  return createLocalAdapter({
    catalog: models,
    modelId: extra.modelId,
    promptApi: extra.promptApi,
    provider: (model) =>
      createTransformersProvider({
        model,
        facts: extra.facts ?? { cpuDevice: 'cpu' },
        remoteHost: host.url,
        cache,
        idleUnloadMs: 0,
        downloadRetries: 1,
        retryDelayMs: 5,
      }),
  });
}

/** Resolves once the adapter has left its initial check. */
function settled(a: LocalAdapter): Promise<AdapterStatus> {
  return new Promise((resolve) => {
    const check = () => {
      const s = a.status();
      if (s.state !== 'loading' || s.progress !== undefined) {
        unsubscribe();
        resolve(s);
      }
    };
    const unsubscribe = a.subscribe(check);
    check();
  });
}

function record(a: LocalAdapter): AdapterStatus[] {
  const seen: AdapterStatus[] = [];
  a.subscribe(() => seen.push(a.status()));
  return seen;
}

function request(text: string, calls: ToolCall[] = []): AgentRunRequest {
  return {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    tools: [
      {
        name: 'search',
        description: 'Search the shop for products by keyword.',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    ],
    signal: new AbortController().signal,
    callTool: async (call) => {
      calls.push(call);
      return { content: [{ type: 'text', text: '3 results: red, blue, green' }] };
    },
  };
}

async function collect(parts: AsyncIterable<AgentStreamPart>): Promise<AgentStreamPart[]> {
  const out: AgentStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

beforeAll(async () => {
  host = await startModelHost();
});
afterAll(async () => {
  await host.close();
});

describe('createLocalAdapter', () => {
  it('needs a download first, with the CPU note where there is no WebGPU, and says nothing is cached', async () => {
    const models = catalog();
    const a = adapter(models, createMemoryModelCache());
    expect(a.status()).toEqual({ state: 'loading' });
    expect(await settled(a)).toEqual({ state: 'needs-download', bytes: modelBytes, note: NO_WEBGPU_NOTE });
    expect(a.models()).toEqual([
      expect.objectContaining({ id: models[0].id, cached: false, recommended: true, selected: true, bytes: modelBytes }),
      expect.objectContaining({ id: models[1].id, cached: false, recommended: false, selected: false }),
    ]);
    const parts = await collect(a.run(request('find socks')));
    expect(parts).toEqual([{ type: 'error', error: 'Download the on-device model first.' }]);
  });

  it('shows no CPU note when a WebGPU adapter exists', async () => {
    // A stand-in for navigator.gpu: Node has none. The model is never loaded on it here.
    const mockGpu = { requestAdapter: async () => ({ features: new Set<string>() }) };
    const a = adapter(catalog(), createMemoryModelCache(), { facts: { gpu: mockGpu } });
    expect(await settled(a)).toEqual({ state: 'needs-download', bytes: modelBytes });
  });

  it('downloads on prepare with progress, then runs a conversation in which the model calls a tool and answers', async () => {
    const models = catalog();
    const a = adapter(models, createMemoryModelCache());
    await settled(a);
    const seen = record(a);
    await a.prepare();
    expect(seen[0]).toEqual({ state: 'downloading', progress: 0 });
    expect(seen.some((s) => s.state === 'downloading' && s.progress > 0 && s.progress < 1)).toBe(true);
    expect(seen.every((s) => s.state === 'downloading' || s.state === 'ready')).toBe(true);
    expect(a.status()).toEqual({ state: 'ready' });
    expect(a.models()[0].cached).toBe(true);

    const calls: ToolCall[] = [];
    const parts = await collect(a.run(request('find socks', calls)));
    expect(calls).toEqual([expect.objectContaining({ name: 'search', input: { query: 'socks' } })]);
    expect(parts.map((p) => p.type)).toEqual([
      'message-start',
      'tool-call',
      'tool-result',
      'step-finish',
      'message-start',
      'text-delta',
      'step-finish',
      'finish',
    ]);
    expect(parts.find((p) => p.type === 'text-delta')).toMatchObject({ delta: 'Found 3 pairs of socks.' });
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('words a model already on this device as loading, never downloading', async () => {
    const models = catalog();
    const cache = createMemoryModelCache();
    const first = adapter(models, cache);
    await settled(first);
    await first.prepare();

    const second = adapter(models, cache);
    expect(await settled(second)).toEqual({ state: 'ready' });
    expect(second.models()[0].cached).toBe(true);
    const seen = record(second);
    const downloadsBefore = host.downloads('onnx/model_q4.onnx');
    const parts = await collect(second.run(request('find socks')));
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(seen[0]).toEqual({ state: 'loading', progress: 0 });
    expect(seen.some((s) => s.state === 'downloading')).toBe(false);
    expect(seen.at(-1)).toEqual({ state: 'ready' });
    expect(host.downloads('onnx/model_q4.onnx')).toBe(downloadsBefore);

    const third = adapter(models, cache);
    await settled(third);
    const prepared = record(third);
    await third.prepare();
    expect(prepared.length).toBeGreaterThan(1);
    expect(prepared.every((s) => s.state === 'loading' || s.state === 'ready')).toBe(true);
  });

  it('after a download that failed half-way, offers it again and resumes', async () => {
    const models = catalog();
    const a = adapter(models, createMemoryModelCache());
    await settled(a);
    // The connection drops before a byte twice: more than the one reconnection the adapter's engine allows.
    host.failNext(`${models[0].id}/onnx/model_q4.onnx`, 0, 2);
    await expect(a.prepare()).rejects.toThrow();
    const status = a.status();
    expect(status.state).toBe('needs-download');
    expect(status.state === 'needs-download' && status.note).toContain('downloading again resumes it');
    await a.prepare();
    expect(a.status()).toEqual({ state: 'ready' });
    expect(host.downloads(`${models[0].id}/tokenizer.json`)).toBe(1);
  });

  it('switches and deletes models, and refuses to switch during a download', async () => {
    const models = catalog();
    const cache = createMemoryModelCache();
    const a = adapter(models, cache);
    await settled(a);
    await expect(a.selectModel('nope')).rejects.toThrow('There is no on-device model "nope".');
    host.slow(`${models[0].id}/onnx/model_q4.onnx`, { chunkBytes: 512, delayMs: 20 });
    const controller = new AbortController();
    const download = a.prepare(controller.signal);
    await expect(a.selectModel(models[1].id)).rejects.toThrow('Wait for the reply or the download to finish');
    controller.abort();
    await expect(download).rejects.toMatchObject({ name: 'AbortError' });
    host.slow(`${models[0].id}/onnx/model_q4.onnx`);
    expect(a.status().state).toBe('needs-download');

    await a.selectModel(models[1].id);
    expect(a.models().find((m) => m.selected)?.id).toBe(models[1].id);
    await a.prepare();
    expect(a.status()).toEqual({ state: 'ready' });
    const listed = await a.listModels();
    expect(listed.map((m) => [m.id, m.cached, m.dtype, m.storedBytes])).toEqual([
      [models[0].id, false, 'q4', undefined],
      [models[1].id, true, 'q4', storedSize],
    ]);
    await a.deleteModel(models[1].id);
    expect(a.status().state).toBe('needs-download');
    expect(a.models()[1].cached).toBe(false);
  });

  it('tests this device with a downloaded model, refusing one not downloaded and while a download runs', async () => {
    const models = catalog();
    const a = adapter(models, createMemoryModelCache());
    await settled(a);
    await expect(a.testModel(models[0].id)).rejects.toThrow('small is not downloaded on this device: download it first.');
    await expect(a.testModel('nope')).rejects.toThrow('There is no on-device model "nope".');
    await a.prepare();

    const result = await a.testModel(models[0].id);
    expect(result).toMatchObject({ modelId: models[0].id, device: 'cpu', dtype: 'q4', memorySource: 'weights+kv' });
    expect(result.promptTokens).toBeGreaterThan(500);
    expect(result.memoryBytes).toBeGreaterThan(storedSize);
    // The model in use is still ready for the conversation afterwards.
    expect(a.status()).toEqual({ state: 'ready' });

    host.slow(`${models[1].id}/onnx/model_q4.onnx`, { chunkBytes: 512, delayMs: 20 });
    await a.selectModel(models[1].id);
    const controller = new AbortController();
    const download = a.prepare(controller.signal);
    await expect(a.testModel(models[0].id)).rejects.toThrow('The on-device model is busy');
    controller.abort();
    await expect(download).rejects.toMatchObject({ name: 'AbortError' });
    host.slow(`${models[1].id}/onnx/model_q4.onnx`);
  });

  it('picks the strongest model that fits a WebGPU device with shader-f16, says why, and lets a person’s pick stand', async () => {
    const f16Gpu = { requestAdapter: async () => ({ features: new Set(['shader-f16']) }) };
    const models = catalog().map((m, i) => ({ ...m, strength: i + 1 }));
    const a = adapter(models, createMemoryModelCache(), { facts: { gpu: f16Gpu } });
    await settled(a);
    const large = a.models().find((m) => m.id === models[1].id);
    expect(large).toMatchObject({ recommended: true, selected: true });
    expect(large?.why).toContain('WebGPU with shader-f16');
    expect(a.models().find((m) => m.id === models[0].id)).toMatchObject({ recommended: false, selected: false });

    // The person picks the smaller one: it stays picked when the device is looked at again.
    await a.selectModel(models[0].id);
    await a.refresh();
    expect(a.models().find((m) => m.selected)?.id).toBe(models[0].id);
    // And a saved pick is never overridden by the recommendation.
    const saved = adapter(models, createMemoryModelCache(), { facts: { gpu: f16Gpu }, modelId: models[0].id });
    await settled(saved);
    expect(saved.models().find((m) => m.selected)?.id).toBe(models[0].id);
    expect(saved.models().find((m) => m.recommended)?.id).toBe(models[1].id);
  });

  it('without WebGPU, keeps the smallest model and says the CPU is why', async () => {
    const models = catalog().map((m, i) => ({ ...m, strength: i + 1, bytes: { q4: modelBytes * (i + 1) } }));
    const a = adapter(models, createMemoryModelCache());
    await settled(a);
    expect(a.models().find((m) => m.selected)).toMatchObject({ id: models[0].id, recommended: true });
    expect(a.models().find((m) => m.selected)?.why).toContain('No WebGPU');
  });

  it("offers Chrome's built-in model, unavailable with the reason where the browser has none", async () => {
    const a = adapter(catalog(), createMemoryModelCache(), { promptApi: createPromptApiProvider(undefined) });
    await settled(a);
    expect(a.models().at(-1)).toMatchObject({ id: PROMPT_API_MODEL_ID, selected: false });
    await a.selectModel(PROMPT_API_MODEL_ID);
    expect(a.status()).toEqual({ state: 'unavailable', reason: NO_PROMPT_API });
    expect(await collect(a.run(request('hi')))).toEqual([{ type: 'error', error: NO_PROMPT_API }]);
  });

  it('is unavailable, saying why, when the engine Worker could not start', async () => {
    // A Worker blocked at start cannot be made in Node: this port stands in for one and fires its error event.
    const mockWorker = new EventTarget() as EventTarget & EnginePort;
    mockWorker.postMessage = () => {};
    const engine = connectTransformersEngine(mockWorker);
    const a = createLocalAdapter({ catalog: catalog(), provider: engine.provider });
    mockWorker.dispatchEvent(Object.assign(new Event('error'), { message: 'Out of memory' }));
    expect(await settled(a)).toEqual({ state: 'unavailable', reason: `${ENGINE_STOPPED}: Out of memory` });
  });
});
