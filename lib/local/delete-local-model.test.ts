import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { deleteLocalModel } from './delete-local-model';
import { createLocalAdapterState } from './local-adapter-state';
import { modelCatalog, recommendedModel } from './model-catalog';

const selected = recommendedModel();
const other = modelCatalog.find((m) => m.id !== selected.id) ?? selected;

describe('deleteLocalModel', () => {
  it('removes the files and reads the facts again, so the status asks for a download', async () => {
    const engines = stubEngines(() => ({ cached: true }));
    const state = createLocalAdapterState(engines);
    state.cached.set(selected.id, true);
    await deleteLocalModel(state, selected.id);
    expect(engines.made.get(selected.id)?.calls.deleteModel).toBe(1);
    expect(state.cached.get(selected.id)).toBe(false);
    expect(state.cached.get(other.id)).toBe(true);
    expect(state.status.state).toBe('needs-download');
  });

  it('refuses an unknown id, and the selected model while the engine is in use, but not another model', async () => {
    const engines = stubEngines(() => ({ cached: true }));
    const state = createLocalAdapterState(engines);
    await expect(deleteLocalModel(state, 'nope')).rejects.toThrow('There is no on-device model "nope".');
    state.busy = 'run';
    await expect(deleteLocalModel(state, selected.id)).rejects.toThrow('Wait for the reply or the download to finish');
    expect(engines.made.get(selected.id)).toBeUndefined();
    await deleteLocalModel(state, other.id);
    expect(engines.made.get(other.id)?.calls.deleteModel).toBe(1);
  });
});
