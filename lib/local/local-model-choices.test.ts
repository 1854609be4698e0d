import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createPromptApiProvider } from './create-prompt-api-provider';
import { deviceTestKey } from '../storage/device-test-results';
import { createLocalAdapterState } from './local-adapter-state';
import { localModelChoices } from './local-model-choices';
import type { DeviceTestResult } from './measure-device';
import { modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';

const [first, second] = modelCatalog;
const measured: DeviceTestResult = {
  modelId: second.id,
  device: 'wasm',
  dtype: 'q4',
  testedAt: '2026-12-01T03:00:00.000Z',
  promptTokens: 1000,
  firstTokenMs: 800,
  tokensPerSecond: 12.4,
  newTokens: 60,
  memoryBytes: 1,
  memorySource: 'weights+kv',
};

describe('localModelChoices', () => {
  it('lists the catalog as known so far: no sizes, the catalog’s pick recommended and selected, no why', () => {
    const choices = localModelChoices(createLocalAdapterState(stubEngines()));
    expect(choices.map((c) => c.id)).toEqual(modelCatalog.map((m) => m.id));
    expect(choices.every((c) => c.bytes === undefined && c.cached === false && c.why === undefined)).toBe(true);
    expect(choices.filter((c) => c.recommended).map((c) => c.id)).toEqual([recommendedModel().id]);
    expect(choices.filter((c) => c.selected).map((c) => c.id)).toEqual([recommendedModel().id]);
  });

  it('gives the sizes for this device, cached flags, the device’s recommendation with why, and measured speeds', () => {
    const state = createLocalAdapterState({ ...stubEngines(), deviceTests: () => ({ [deviceTestKey(measured)]: measured }) });
    state.devices.set(first.id, { device: 'wasm', dtype: 'q4', numThreads: 1 });
    state.cached.set(first.id, true);
    state.recommendation = { id: second.id, reason: 'It fits.' };
    state.selected = first.id;
    const [a, b] = localModelChoices(state);
    expect(a).toEqual({
      id: first.id,
      label: first.label,
      brief: first.brief,
      bytes: first.bytes.q4,
      cached: true,
      recommended: false,
      selected: true,
    });
    expect(b).toMatchObject({ recommended: true, why: 'It fits.', selected: false, measured: '12 tok/s on this device' });
  });

  it('ends with Chrome’s built-in model where it was given, recommended only when the device said so', () => {
    const state = createLocalAdapterState({ ...stubEngines(), promptApi: createPromptApiProvider(undefined) });
    expect(localModelChoices(state).at(-1)).toEqual({
      id: PROMPT_API_CHOICE,
      label: 'Chrome built-in',
      brief: "Chrome's own model: nothing to download here, where Chrome offers it.",
      selected: false,
    });
    state.recommendation = { id: PROMPT_API_CHOICE, reason: 'No WebGPU.' };
    state.selected = PROMPT_API_CHOICE;
    expect(localModelChoices(state).at(-1)).toMatchObject({ recommended: true, why: 'No WebGPU.', selected: true });
    expect(localModelChoices(state).filter((c) => c.recommended)).toHaveLength(1);
  });
});
