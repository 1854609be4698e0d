import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestModel } from '../../scripts/make-test-model';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { type ModelHost, startModelHost } from '../../tests/servers/model-host';
import type { EnginePort } from '../local/engine-messages';
import { recommendedModel } from '../local/model-catalog';
import { serveTransformersEngine } from '../local/serve-transformers-engine';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSettingsStore } from '../storage/settings-store';
import { createLocalAdapterFromSettings } from './create-local-adapter-from-settings';

// The real engine behind a real MessageChannel, as both hosts wire it; two loopback download hosts serve the
// generated test model under the recommended catalog id.
const files = buildTestModel({ reply: 'Hello.', afterToolResult: 'Done.' });
let first: ModelHost;
let second: ModelHost;

beforeAll(async () => {
  const id = recommendedModel().id;
  first = await startModelHost({ [id]: files });
  second = await startModelHost({ [id]: files });
});
afterAll(async () => {
  await first.close();
  await second.close();
});

async function start(modelHost: string) {
  const settings = createSettingsStore({ local: createMemoryStorageArea() });
  await settings.saveLocal({ modelHost });
  const adapter = await createLocalAdapterFromSettings({
    settings,
    startWorker: () => {
      const channel = new MessageChannel();
      serveTransformersEngine(channel.port2 as unknown as EnginePort, { facts: { cpuDevice: 'cpu' }, cache: createMemoryModelCache() });
      return channel.port1 as unknown as EnginePort;
    },
    getURL: (path) => `chrome-extension://test${path}`,
  });
  return { settings, adapter };
}

describe('createLocalAdapterFromSettings', () => {
  it('downloads from the download host in the settings, only on prepare', async () => {
    const { adapter } = await start(first.url);
    await expect.poll(() => adapter.status?.().state).toBe('needs-download');
    expect(first.downloads()).toBe(0);
    await adapter.prepare?.();
    expect(adapter.status?.().state).toBe('ready');
    expect(first.downloads()).toBeGreaterThan(0);
  });

  it('follows a download host changed in the settings', async () => {
    const { settings, adapter } = await start(first.url);
    const before = first.downloads();
    await settings.saveLocal({ modelHost: second.url });
    await expect.poll(() => adapter.status?.().state).toBe('needs-download');
    await adapter.prepare?.();
    expect(second.downloads()).toBeGreaterThan(0);
    expect(first.downloads()).toBe(before);
  });

  it('tests this device through the engine Worker, and the kept result shows in the picker', async () => {
    const { settings, adapter } = await start(first.url);
    const id = recommendedModel().id;
    await expect.poll(() => adapter.status?.().state).toBe('needs-download');
    await expect(adapter.testModel(id)).rejects.toThrow(/is not downloaded on this device: download it first/);
    await adapter.prepare?.();

    const phases: string[] = [];
    const result = await adapter.testModel(id, (p) => phases.push(p.phase));
    expect(result).toMatchObject({ modelId: id, device: 'cpu', memorySource: 'weights+kv' });
    // The engine's own figures: the templated fixed prompt read whole, and a reply whose first token it timed.
    expect(result.promptTokens).toBeGreaterThan(500);
    expect(result.newTokens).toBeGreaterThan(0);
    expect(result.firstTokenMs).toBeGreaterThan(0);
    expect(result.memoryBytes).toBeGreaterThan((await adapter.listModels()).find((m) => m.id === id)!.storedBytes!);
    expect(phases).toContain('reading');

    expect(adapter.models?.().find((m) => m.id === id)?.measured).toBeUndefined();
    await settings.saveDeviceTest(result);
    await expect.poll(() => adapter.models?.().find((m) => m.id === id)?.measured).toMatch(/on this device$/);
    expect((await adapter.listModels()).find((m) => m.id === id)?.deviceTest).toEqual(result);
  });
});
