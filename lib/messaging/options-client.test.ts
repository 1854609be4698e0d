import { describe, expect, it } from 'vitest';
import { handleOptionsRequest } from '../host/options-requests';
import { createMemoryStorageArea } from '../storage/memory-storage-area';
import { createSettingsStore } from '../storage/settings-store';
import { createOptionsClient } from './options-client';
import { isOptionsRequest } from './options-messages';

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
      });
    });
    expect(await client.listLocalModels()).toEqual({ ok: true, models: [{ id: 'm', label: 'M', brief: 'b', cached: true }] });
    expect(await client.deleteLocalModel('m')).toEqual({ ok: true });
    expect(sent).toEqual([{ type: 'options/list-local-models' }, { type: 'options/delete-local-model', modelId: 'm' }]);
    expect(sent.every(isOptionsRequest)).toBe(true);
  });

  it('turns a missing host into a reply that says so', async () => {
    const gone = createOptionsClient(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    expect(await gone.testConnection()).toEqual({
      ok: false,
      message: 'The agent host did not answer (Could not establish connection. Receiving end does not exist.). Reload the extension and try again.',
    });
    const silent = createOptionsClient(async () => undefined);
    expect(await silent.listCloudModels()).toEqual({ ok: false, message: 'The agent host did not answer. Reload the extension and try again.' });
  });
});
