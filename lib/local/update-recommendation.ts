import type { LocalAdapterState } from './local-adapter-state';
import { isKnownModel } from './local-adapter-state';
import { recommendModel } from './recommend-model';

/**
 * Work out what fits this device from the engines' device choices so far (and whether Chrome's model can run), keep
 * it in state.recommendation, and select it unless the person chose a model or the engine is in use (switching under
 * a reply or a download would change what it runs on).
 */
export async function updateRecommendation(state: LocalAdapterState): Promise<void> {
  const choices = [...state.devices.values()];
  const promptApi = state.promptApi ? (await state.promptApi.status()).state !== 'unavailable' : false;
  state.recommendation = recommendModel(state.catalog, {
    webgpu: choices.some((d) => d.device === 'webgpu'),
    shaderF16: choices.some((d) => d.dtype === 'q4f16'),
    ...(state.deviceMemoryGb ? { memoryGb: state.deviceMemoryGb } : {}),
    promptApi,
  });
  if (!state.personChose && !state.busy && isKnownModel(state, state.recommendation.id)) state.selected = state.recommendation.id;
}
