import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { CloudModelsReply } from '../../lib/messaging/options-messages';
import { createMemoryStorageArea } from '../../lib/testing/memory-storage-area';
import type { Settings } from '../../lib/storage/settings';
import { createSettingsStore } from '../../lib/storage/settings-store';
import { createCloudModelsState } from './cloud-models-state';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';

async function setup(
  reply: CloudModelsReply,
  prepare: (store: ReturnType<typeof createSettingsStore>) => Promise<unknown> = async () => {},
) {
  const store = createSettingsStore({ local: createMemoryStorageArea() });
  await prepare(store);
  const settings = signal<Settings | undefined>(await store.read());
  let asked = 0;
  const state = createCloudModelsState(
    {
      listCloudModels: async () => {
        asked++;
        return reply;
      },
    },
    settings,
  );
  return { state, asked: () => asked };
}

describe('createCloudModelsState', () => {
  const models = { ok: true as const, models: [{ id: 'gpt-test', label: 'gpt-test' }] };

  it('asks for no list while the provider has no saved key', async () => {
    const { state, asked } = await setup(models);
    await state.refreshCloudModels();
    expect(state.cloudModels.value).toEqual({ state: 'idle' });
    expect(asked()).toBe(0);
  });

  it('lists the models once a key is saved', async () => {
    const { state, asked } = await setup(models, (store) => store.saveApiKey('openai', KEY));
    await state.refreshCloudModels();
    expect(asked()).toBe(1);
    expect(state.cloudModels.value).toEqual({ state: 'ready', value: models.models });
  });

  it('lists an OpenAI-compatible server’s models once it has a base URL, and says why a list failed', async () => {
    const { state } = await setup({ ok: false, message: 'The server did not answer.' }, (store) =>
      store.saveCloud({ provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: '' }),
    );
    await state.refreshCloudModels();
    expect(state.cloudModels.value).toEqual({ state: 'error', message: 'The server did not answer.' });
  });
});
