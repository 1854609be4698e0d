import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProviderServer, type ProviderServer } from '../../tests/servers/provider-server';
import { listModels } from '../cloud/list-models';
import { testConnection } from '../cloud/test-connection';
import type { DeviceTestResult } from '../local/measure-device';
import type { LocalModelInfo } from '../messaging/options-messages';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSettingsStore, type SettingsStore } from '../storage/settings-store';
import { handleOptionsRequest, type OptionsRequestDeps } from './options-requests';

const KEY = 'sk-test-0123456789abcdefghijklmnop';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({ apiKey: KEY, models: ['gpt-test', 'text-embedding-3-small', 'gpt-test-mini'] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** An in-memory stand-in for the on-device model cache (the real one needs the browser's Cache API). */
function mockLocalCache() {
  const models: LocalModelInfo[] = [
    {
      id: 'onnx-community/Qwen3-0.6B-ONNX',
      label: 'Qwen3 0.6B',
      brief: 'Small.',
      bytes: 100,
      cached: true,
      storedBytes: 100,
      recommended: true,
    },
    { id: 'onnx-community/Qwen3-1.7B-ONNX', label: 'Qwen3 1.7B', brief: 'Larger.', bytes: 300, cached: false },
  ];
  return {
    models,
    listLocalModels: async () => structuredClone(models),
    deleteLocalModel: async (id: string) => {
      const m = models.find((x) => x.id === id)!;
      m.cached = false;
      delete m.storedBytes;
    },
  };
}

function setup(): { store: SettingsStore; deps: OptionsRequestDeps; local: ReturnType<typeof mockLocalCache>; deleted: string[] } {
  const store = createSettingsStore({ local: createMemoryStorageArea() });
  const local = mockLocalCache();
  const deleted: string[] = [];
  return {
    store,
    local,
    deleted,
    deps: {
      deleteConversations: async () => void deleted.push('all'),
      settings: store,
      testConnection: (s) => testConnection(s, { fetch }),
      listCloudModels: (s) => listModels(s, { fetch }),
      listLocalModels: local.listLocalModels,
      deleteLocalModel: local.deleteLocalModel,
      testDevice: async (modelId) => {
        const m = local.models.find((x) => x.id === modelId)!;
        if (!m.cached) throw new Error(`${m.label} is not downloaded on this device: download it first.`);
        return { ...measured, modelId };
      },
      saveDeviceTest: (result) => store.saveDeviceTest(result),
    },
  };
}

const measured: DeviceTestResult = {
  modelId: '',
  device: 'wasm',
  dtype: 'q4',
  testedAt: '2026-12-01T03:00:00.000Z',
  promptTokens: 1010,
  firstTokenMs: 1500,
  tokensPerSecond: 12.5,
  newTokens: 40,
  memoryBytes: 123_456,
  memorySource: 'weights+kv',
};

describe('handleOptionsRequest', () => {
  it('ignores messages that are not options requests', () => {
    const { deps } = setup();
    expect(handleOptionsRequest({ type: 'panel/bind', tabId: 1 }, deps)).toBeUndefined();
    expect(handleOptionsRequest(null, deps)).toBeUndefined();
    expect(handleOptionsRequest({ type: 'options/delete-local-model' }, deps)).toBeUndefined();
  });

  it('tests the saved connection with the saved key, which only the host reads', async () => {
    const { store, deps } = setup();
    await store.saveCloud({ provider: 'openai-compatible', baseURL: `${server.url}/v1`, model: 'gpt-test' });
    await store.saveApiKey('openai-compatible', KEY);
    server.script({ type: 'reply', text: 'OK' });

    const reply = await handleOptionsRequest({ type: 'options/test-connection' }, deps);
    expect(reply).toMatchObject({ ok: true, message: expect.stringMatching(/^Connected: gpt-test answered in/) });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reports a refused key in words, without the key', async () => {
    const { store, deps } = setup();
    await store.saveCloud({ provider: 'openai', baseURL: `${server.url}/v1`, model: 'gpt-test' });
    await store.saveApiKey('openai', 'sk-wrong-0123456789abcdefghijklmnop');

    const reply = await handleOptionsRequest({ type: 'options/test-connection' }, deps);
    expect(reply?.ok).toBe(false);
    expect((reply as { message: string }).message).toMatch(/key/i);
    expect(JSON.stringify(reply)).not.toContain('sk-wrong-0123456789abcdefghijklmnop');
  });

  it('says what is missing instead of calling the provider', async () => {
    const { store, deps } = setup();
    await store.saveCloud({ provider: 'anthropic', baseURL: `${server.url}/v1`, model: 'claude-test' });
    expect(await handleOptionsRequest({ type: 'options/test-connection' }, deps)).toEqual({
      ok: false,
      message: 'No API key is saved for Anthropic: add yours in the Cloud section of the options page.',
    });
    expect(server.requests).toHaveLength(0);
  });

  it("lists the provider's chat models, even before a model is chosen", async () => {
    const { store, deps } = setup();
    await store.saveCloud({ provider: 'openai', baseURL: `${server.url}/v1` });
    await store.saveApiKey('openai', KEY);
    expect(await handleOptionsRequest({ type: 'options/list-cloud-models' }, deps)).toEqual({
      ok: true,
      models: [
        { id: 'gpt-test', label: 'gpt-test' },
        { id: 'gpt-test-mini', label: 'gpt-test-mini' },
      ],
    });
  });

  it('lists the on-device catalog and deletes a downloaded model', async () => {
    const { deps } = setup();
    const listed = await handleOptionsRequest({ type: 'options/list-local-models' }, deps);
    expect(listed).toMatchObject({ ok: true, models: [{ cached: true, storedBytes: 100 }, { cached: false }] });

    expect(await handleOptionsRequest({ type: 'options/delete-local-model', modelId: 'onnx-community/Qwen3-0.6B-ONNX' }, deps)).toEqual({
      ok: true,
    });
    const after = await handleOptionsRequest({ type: 'options/list-local-models' }, deps);
    expect(after).toMatchObject({ ok: true, models: [{ cached: false }, { cached: false }] });
    expect(await handleOptionsRequest({ type: 'options/delete-local-model', modelId: 'nope' }, deps)).toEqual({
      ok: false,
      message: 'There is no on-device model called “nope”.',
    });
  });

  it('tests a downloaded model, keeps its figures in the settings, and says why when it cannot', async () => {
    const { store, deps } = setup();
    const id = 'onnx-community/Qwen3-0.6B-ONNX';
    expect(await handleOptionsRequest({ type: 'options/test-device', modelId: id }, deps)).toEqual({
      ok: true,
      result: { ...measured, modelId: id },
    });
    expect(Object.values(await store.deviceTests())).toEqual([{ ...measured, modelId: id }]);

    expect(await handleOptionsRequest({ type: 'options/test-device', modelId: 'onnx-community/Qwen3-1.7B-ONNX' }, deps)).toEqual({
      ok: false,
      message: 'The test did not finish: Qwen3 1.7B is not downloaded on this device: download it first.',
    });
    expect(await handleOptionsRequest({ type: 'options/test-device', modelId: 'nope' }, deps)).toEqual({
      ok: false,
      message: 'There is no on-device model called “nope”.',
    });
    // A request without a model is not one.
    expect(handleOptionsRequest({ type: 'options/test-device' }, deps)).toBeUndefined();
    expect(Object.keys(await store.deviceTests())).toHaveLength(1);
  });

  it('turns a failing dependency into a reply, and never lets the key out', async () => {
    const { store, deps } = setup();
    await store.saveCloud({ provider: 'openai', model: 'gpt-test' });
    await store.saveApiKey('openai', KEY);
    const leaky: OptionsRequestDeps = {
      ...deps,
      testConnection: async (s) => ({ ok: false, message: `The server said: invalid key ${s.apiKey}` }),
      deleteLocalModel: async () => {
        throw new Error('the cache is locked');
      },
    };
    expect(await handleOptionsRequest({ type: 'options/test-connection' }, leaky)).toEqual({
      ok: false,
      message: 'The server said: invalid key [your key]',
    });
    expect(await handleOptionsRequest({ type: 'options/delete-local-model', modelId: 'onnx-community/Qwen3-0.6B-ONNX' }, leaky)).toEqual({
      ok: false,
      message: 'The agent host could not do that: the cache is locked',
    });
  });

  it('deletes all conversations on request, and says so when the host could not', async () => {
    const { deps, deleted } = setup();
    expect(await handleOptionsRequest({ type: 'options/delete-conversations' }, deps)).toEqual({ ok: true });
    expect(deleted).toEqual(['all']);
    const failing: OptionsRequestDeps = {
      ...deps,
      deleteConversations: async () => {
        throw new Error('storage is full');
      },
    };
    expect(await handleOptionsRequest({ type: 'options/delete-conversations' }, failing)).toEqual({
      ok: false,
      message: 'The agent host could not do that: storage is full',
    });
  });
});
