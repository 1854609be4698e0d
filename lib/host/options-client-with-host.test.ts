import { describe, expect, it } from 'vitest';
import { handleOptionsRequest } from './options-requests';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSettingsStore } from '../storage/settings-store';
import { createOptionsClient } from '../messaging/options-client';
import { isOptionsRequest } from '../messaging/options-messages';

describe('createOptionsClient', () => {
  it('sends typed requests and returns the host’s replies', async () => {
    const store = createSettingsStore({ local: createMemoryStorageArea() });
    const sent: unknown[] = [];
    const client = createOptionsClient(async (message) => {
      sent.push(message);
      return handleOptionsRequest(message, {
        settings: store,
        testConnection: async () => ({ ok: true, message: 'Connected.' }),
        listCloudModels: async () => ({ ok: true, models: [] }),
        listLocalModels: async () => [{ id: 'm', label: 'M', brief: 'b', cached: true }],
        deleteLocalModel: async () => {},
        deleteConversations: async () => {},
        testDevice: async () => {
          throw new Error('unused');
        },
        saveDeviceTest: async () => {},
      });
    });
    expect(await client.listLocalModels()).toEqual({ ok: true, models: [{ id: 'm', label: 'M', brief: 'b', cached: true }] });
    expect(await client.deleteLocalModel('m')).toEqual({ ok: true });
    expect(await client.deleteConversations()).toEqual({ ok: true });
    expect(sent).toEqual([
      { type: 'options/list-local-models' },
      { type: 'options/delete-local-model', modelId: 'm' },
      { type: 'options/delete-conversations' },
    ]);
    expect(sent.every(isOptionsRequest)).toBe(true);
  });

  it('asks again while the host is starting', async () => {
    let attempts = 0;
    const client = createOptionsClient(
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('Could not establish connection. Receiving end does not exist.');
        if (attempts === 2) return undefined;
        return { ok: true, models: [] };
      },
      { retryDelaysMs: [1, 1] },
    );
    expect(await client.listLocalModels()).toEqual({ ok: true, models: [] });
    expect(attempts).toBe(3);
  });

  it('turns a missing host into a reply that says so', async () => {
    let attempts = 0;
    const gone = createOptionsClient(
      async () => {
        attempts++;
        throw new Error('Could not establish connection. Receiving end does not exist.');
      },
      { retryDelaysMs: [1, 1] },
    );
    expect(await gone.testConnection()).toEqual({
      ok: false,
      message:
        'The agent host did not answer (Could not establish connection. Receiving end does not exist.). Reload the extension and try again.',
    });
    expect(attempts).toBe(3);
    let silentAttempts = 0;
    const silent = createOptionsClient(
      async () => {
        silentAttempts++;
        return undefined;
      },
      { retryDelaysMs: [1] },
    );
    expect(await silent.listCloudModels()).toEqual({
      ok: false,
      message: 'The agent host did not answer. Reload the extension and try again.',
    });
    expect(silentAttempts).toBe(2);
  });
});
