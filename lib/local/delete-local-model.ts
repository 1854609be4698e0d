import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, specOf } from './local-adapter-state';
import { refreshModelFacts } from './refresh-model-facts';

/**
 * The adapter's deleteModel: remove a catalog model's files (its engine unloads it first), then read the facts again
 * so the status and lists say it is gone. Only the selected model is refused while the engine is in use: another
 * model's files are not what the reply or download is using.
 */
export async function deleteLocalModel(state: LocalAdapterState, id: string): Promise<void> {
  const spec = specOf(state, id);
  if (!spec) throw new Error(`There is no on-device model "${id}".`);
  if (state.busy && id === state.selected) throw new Error('Wait for the reply or the download to finish before deleting the model.');
  await providerOf(state, spec).deleteModel();
  state.cached.set(id, false);
  await refreshModelFacts(state);
}
