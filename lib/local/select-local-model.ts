import type { LocalAdapterState } from './local-adapter-state';
import { isKnownModel, providerOf, setStatus, specOf } from './local-adapter-state';
import { refreshModelFacts } from './refresh-model-facts';

/**
 * The adapter's selectModel: the person's pick, which from now on the recommendation never moves (even a pick of
 * the model already selected). A new pick is remembered (onModelChange), the old model is freed, and the facts are
 * read again for the new one's status. Rejects while the engine is in use, or for an id that is not offered.
 * @param onModelChange Remember the pick (the settings store).
 */
export async function selectLocalModel(state: LocalAdapterState, id: string, onModelChange?: (modelId: string) => void): Promise<void> {
  if (state.busy) throw new Error('Wait for the reply or the download to finish before switching models.');
  if (!isKnownModel(state, id)) throw new Error(`There is no on-device model "${id}".`);
  state.personChose = true;
  if (id === state.selected) return;
  const previous = specOf(state, state.selected);
  state.selected = id;
  onModelChange?.(id);
  setStatus(state, { state: 'loading' });
  // Free the old model's memory now rather than at its idle timeout.
  if (previous)
    await providerOf(state, previous)
      .unload()
      .catch(() => {});
  await refreshModelFacts(state);
}
