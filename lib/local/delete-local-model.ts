import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, specOf } from './local-adapter-state';
import { refreshModelFacts } from './refresh-model-facts';

/**
 * The adapter's deleteModel: remove a catalog model's files (its engine unloads it first), then read the facts again
 * so the status and lists say it is gone. Refused while the engine uses the model: the selected one during a reply
 * or a download, and whichever model "Test this device" is measuring.
 */
export async function deleteLocalModel(state: LocalAdapterState, id: string): Promise<void> {
  const spec = specOf(state, id);
  if (!spec) throw new Error(`There is no on-device model "${id}".`);
  if (state.busy && id === state.selected) throw new Error('Wait for the reply or the download to finish before deleting the model.');
  if (state.testing === id) throw new Error('Wait for the device test to finish before deleting the model.');
  await providerOf(state, spec).deleteModel();
  state.cached.set(id, false);
  await refreshModelFacts(state);
}
