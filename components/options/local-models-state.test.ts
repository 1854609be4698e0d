import { describe, expect, it } from 'vitest';
import type { LocalModelInfo } from '../../lib/messaging/options-messages';
import { createLocalModelsState } from './local-models-state';

const small: LocalModelInfo = {
  id: 'org/small',
  label: 'Small One',
  brief: 'Quick.',
  bytes: 570,
  dtype: 'q4',
  cached: true,
  storedBytes: 570,
};

function setup(deleteReply: { ok: true } | { ok: false; message: string } = { ok: true }) {
  const calls: string[] = [];
  const models = [structuredClone(small)];
  const client = {
    listLocalModels: async () => ({ ok: true as const, models: structuredClone(models) }),
    deleteLocalModel: async (id: string) => {
      calls.push(`delete ${id}`);
      if (deleteReply.ok) models[0].cached = false;
      return deleteReply;
    },
  };
  return { state: createLocalModelsState(client), calls };
}

describe('createLocalModelsState', () => {
  it('lists the models the host reports', async () => {
    const { state } = setup();
    expect(state.localModels.value).toEqual({ state: 'idle' });
    await state.refreshLocalModels();
    expect(state.localModels.value).toEqual({ state: 'ready', value: [small] });
  });

  it('says why the list could not be had', async () => {
    const state = createLocalModelsState({
      listLocalModels: async () => ({ ok: false, message: 'No host.' }),
      deleteLocalModel: async () => ({ ok: true }),
    });
    await state.refreshLocalModels();
    expect(state.localModels.value).toEqual({ state: 'error', message: 'No host.' });
  });

  it('deletes a model only on the second click, names it, and lists again', async () => {
    const { state, calls } = setup();
    await state.refreshLocalModels();
    await state.confirmDelete();
    expect(calls).toEqual([]);
    state.requestDelete('org/small');
    expect(state.pendingDelete.value).toBe('org/small');
    await state.confirmDelete();
    expect(calls).toEqual(['delete org/small']);
    expect(state.pendingDelete.value).toBeUndefined();
    expect(state.localNotice.value).toEqual({ tone: 'success', text: 'Small One was deleted from this device.' });
    expect(state.localModels.value).toMatchObject({ state: 'ready', value: [{ id: 'org/small', cached: false }] });
  });

  it('deletes nothing after Cancel, and says why a deletion was refused', async () => {
    const { state, calls } = setup({ ok: false, message: 'A download is running.' });
    state.requestDelete('org/small');
    state.cancelDelete();
    await state.confirmDelete();
    expect(calls).toEqual([]);
    state.requestDelete('org/small');
    await state.confirmDelete();
    expect(state.localNotice.value).toEqual({ tone: 'error', text: 'org/small was not deleted: A download is running.' });
  });
});
