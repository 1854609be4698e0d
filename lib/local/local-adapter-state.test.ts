import { describe, expect, it } from 'vitest';
import { createStubTransformersProvider } from '../testing/stub-transformers-provider';
import { createPromptApiProvider } from './create-prompt-api-provider';
import { deviceTestKey } from '../storage/device-test-results';
import { createLocalAdapterState, deviceTestOf, isKnownModel, providerOf, recommendedId, setStatus, specOf } from './local-adapter-state';
import type { DeviceTestResult } from './measure-device';
import { modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';

const provider = createStubTransformersProvider;
const other = modelCatalog.find((m) => m.id !== recommendedModel().id)?.id as string;

describe('createLocalAdapterState', () => {
  it('starts loading, on the catalog’s recommended model, with nothing known and nobody’s pick', () => {
    const state = createLocalAdapterState({ provider });
    expect(state).toMatchObject({ catalog: modelCatalog, status: { state: 'loading' }, busy: undefined, personChose: false });
    expect(state.selected).toBe(recommendedModel().id);
    expect(state.recommendation).toBeUndefined();
    expect([state.providers.size, state.cached.size, state.devices.size, state.listeners.size]).toEqual([0, 0, 0, 0]);
  });

  it('keeps a saved pick that is still offered, as the person’s', () => {
    const state = createLocalAdapterState({ provider, modelId: other });
    expect(state).toMatchObject({ selected: other, personChose: true });
  });

  it('drops a saved pick no longer offered (Chrome’s model without the Prompt API, a retired id)', () => {
    for (const modelId of ['retired/model', PROMPT_API_CHOICE]) {
      const state = createLocalAdapterState({ provider, modelId });
      expect(state).toMatchObject({ selected: recommendedModel().id, personChose: false });
    }
    const withApi = createLocalAdapterState({ provider, modelId: PROMPT_API_CHOICE, promptApi: createPromptApiProvider(undefined) });
    expect(withApi).toMatchObject({ selected: PROMPT_API_CHOICE, personChose: true });
  });

  it('refuses an empty catalog', () => {
    expect(() => createLocalAdapterState({ provider, catalog: [] })).toThrow('The on-device model catalog is empty.');
  });
});

describe('specOf and isKnownModel', () => {
  it('find catalog models; Chrome’s model is known only where it was given', () => {
    const state = createLocalAdapterState({ provider });
    expect(specOf(state, other)?.id).toBe(other);
    expect(specOf(state, 'nope')).toBeUndefined();
    expect(isKnownModel(state, other)).toBe(true);
    expect(isKnownModel(state, PROMPT_API_CHOICE)).toBe(false);
    const withApi = createLocalAdapterState({ provider, promptApi: createPromptApiProvider(undefined) });
    expect(specOf(withApi, PROMPT_API_CHOICE)).toBeUndefined();
    expect(isKnownModel(withApi, PROMPT_API_CHOICE)).toBe(true);
  });
});

describe('providerOf', () => {
  it('makes one engine per model and keeps it', () => {
    const made: string[] = [];
    const state = createLocalAdapterState({
      provider: (model) => {
        made.push(model.id);
        return createStubTransformersProvider(model);
      },
    });
    const [a, b] = modelCatalog;
    expect(providerOf(state, a)).toBe(providerOf(state, a));
    providerOf(state, b);
    expect(made).toEqual([a.id, b.id]);
  });
});

describe('setStatus', () => {
  it('sets the status and tells every listener, even one that unsubscribes while told', () => {
    const state = createLocalAdapterState({ provider });
    const heard: string[] = [];
    const first = () => {
      heard.push(`first:${state.status.state}`);
      state.listeners.delete(first);
    };
    state.listeners.add(first);
    state.listeners.add(() => heard.push(`second:${state.status.state}`));
    setStatus(state, { state: 'ready' });
    setStatus(state, { state: 'loading' });
    expect(heard).toEqual(['first:ready', 'second:ready', 'second:loading']);
  });
});

describe('recommendedId', () => {
  it('is the catalog’s own pick until the device’s facts gave one', () => {
    const state = createLocalAdapterState({ provider });
    expect(recommendedId(state)).toBe(recommendedModel().id);
    state.recommendation = { id: other, reason: 'fits' };
    expect(recommendedId(state)).toBe(other);
  });
});

describe('deviceTestOf', () => {
  it('reads the stored results as they are now, preferring the device the model runs on', () => {
    const spec = recommendedModel();
    const result = (device: 'webgpu' | 'wasm', testedAt: string): DeviceTestResult => ({
      modelId: spec.id,
      device,
      dtype: device === 'webgpu' ? 'q4f16' : 'q4',
      testedAt,
      promptTokens: 1000,
      firstTokenMs: 800,
      tokensPerSecond: 20,
      newTokens: 60,
      memoryBytes: 1,
      memorySource: 'weights+kv',
    });
    const gpu = result('webgpu', '2026-12-01T03:00:00.000Z');
    const cpu = result('wasm', '2026-12-01T02:00:00.000Z');
    let stored = {};
    const state = createLocalAdapterState({ provider, deviceTests: () => stored });
    expect(deviceTestOf(state, spec)).toBeUndefined();
    stored = { [deviceTestKey(gpu)]: gpu, [deviceTestKey(cpu)]: cpu };
    expect(deviceTestOf(state, spec)).toEqual(gpu);
    state.devices.set(spec.id, { device: 'wasm', dtype: 'q4', numThreads: 1 });
    expect(deviceTestOf(state, spec)).toEqual(cpu);
    expect(deviceTestOf(createLocalAdapterState({ provider }), spec)).toBeUndefined();
  });
});
