import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import type { DeviceChoice } from './choose-device';
import { createPromptApiProvider, type LanguageModelLike } from './create-prompt-api-provider';
import { createLocalAdapterState } from './local-adapter-state';
import { modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE, recommendModel } from './recommend-model';
import { updateRecommendation } from './update-recommendation';

const f16: DeviceChoice = { device: 'webgpu', dtype: 'q4f16', numThreads: 1 };
const cpu: DeviceChoice = { device: 'wasm', dtype: 'q4', numThreads: 1 };
/** Chrome's model, available: availability is all the recommendation asks of it. */
const availableModel: LanguageModelLike = {
  availability: async () => 'available',
  create: async () => {
    throw new Error('not used by the recommendation');
  },
};

function stateOn(device: DeviceChoice, extra: Partial<Parameters<typeof createLocalAdapterState>[0]> = {}) {
  const state = createLocalAdapterState({ ...stubEngines(), ...extra });
  for (const spec of modelCatalog) state.devices.set(spec.id, device);
  return state;
}

describe('updateRecommendation', () => {
  it('recommends from the engines’ device choices and the memory, and selects it when nobody chose', async () => {
    const state = stateOn(f16, { deviceMemoryGb: 8 });
    await updateRecommendation(state);
    const expected = recommendModel(modelCatalog, { webgpu: true, shaderF16: true, memoryGb: 8, promptApi: false });
    expect(state.recommendation).toEqual(expected);
    expect(expected.id).not.toBe(recommendedModel().id);
    expect(state.selected).toBe(expected.id);
  });

  it('counts Chrome’s model when it can run here, and never when it was not given', async () => {
    const withApi = stateOn(cpu, { promptApi: createPromptApiProvider(availableModel) });
    await updateRecommendation(withApi);
    expect(withApi.recommendation?.id).toBe(PROMPT_API_CHOICE);
    expect(withApi.selected).toBe(PROMPT_API_CHOICE);
    const without = stateOn(cpu, { promptApi: createPromptApiProvider(undefined) });
    await updateRecommendation(without);
    expect(without.recommendation?.id).not.toBe(PROMPT_API_CHOICE);
  });

  it('leaves the selection alone when the person chose, or while the engine is in use', async () => {
    const other = modelCatalog.find((m) => m.id !== recommendedModel().id)?.id as string;
    const chose = stateOn(f16, { modelId: other, deviceMemoryGb: 2 });
    await updateRecommendation(chose);
    expect(chose.recommendation?.id).not.toBe(other);
    expect(chose.selected).toBe(other);

    const busy = stateOn(f16, { deviceMemoryGb: 8 });
    busy.busy = 'run';
    await updateRecommendation(busy);
    expect(busy.recommendation?.id).not.toBe(recommendedModel().id);
    expect(busy.selected).toBe(recommendedModel().id);
  });
});
