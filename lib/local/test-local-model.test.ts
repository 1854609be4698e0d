import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { deleteLocalModel } from './delete-local-model';
import { createLocalAdapterState, providerOf } from './local-adapter-state';
import type { DeviceTestPhase } from './measure-device';
import { modelCatalog, recommendedModel } from './model-catalog';
import { testLocalModel } from './test-local-model';

const selected = recommendedModel();
const other = modelCatalog.find((m) => m.id !== selected.id) ?? selected;

describe('testLocalModel', () => {
  it('measures a downloaded model with the real measurement, then frees it when it is not the one in use', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true, replies: ['A reply.'] })));
    state.cached.set(selected.id, true);
    const heard: string[] = [];
    state.listeners.add(() => heard.push(state.status.state));
    const phases: DeviceTestPhase['phase'][] = [];
    const result = await testLocalModel(state, other.id, (p) => phases.push(p.phase));
    expect(result).toMatchObject({ modelId: other.id, device: 'cpu', dtype: 'q4', memoryBytes: 1000, memorySource: 'weights' });
    expect(phases).toContain('reading');
    expect(providerOf(state, other).loaded).toBe(false);
    expect(state.busy).toBeUndefined();
    // The selected model's status is unchanged, but the panels hear it again.
    expect(heard).toEqual(['ready']);
  });

  it('holds the model it measures: deleting it meanwhile is refused, and allowed again once the test ends', async () => {
    const engines = stubEngines(() => ({ cached: true, replies: ['A reply.'] }));
    const state = createLocalAdapterState(engines);
    const refusals: string[] = [];
    await testLocalModel(state, other.id, (p) => {
      if (p.phase === 'reading') deleteLocalModel(state, other.id).catch((error: Error) => refusals.push(error.message));
    });
    expect(refusals).toEqual(['Wait for the device test to finish before deleting the model.']);
    expect(engines.made.get(other.id)?.calls.deleteModel).toBe(0);
    await deleteLocalModel(state, other.id);
    expect(engines.made.get(other.id)?.calls.deleteModel).toBe(1);
    expect(state.cached.get(other.id)).toBe(false);
  });

  it('keeps the model in use loaded for the conversation', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true, replies: ['A reply.'] })));
    await testLocalModel(state, selected.id);
    expect(providerOf(state, selected).loaded).toBe(true);
  });

  it('refuses, in words, an unknown id, a model not downloaded, and a busy engine', async () => {
    const state = createLocalAdapterState(stubEngines());
    await expect(testLocalModel(state, 'nope')).rejects.toThrow('There is no on-device model "nope".');
    await expect(testLocalModel(state, other.id)).rejects.toThrow(`${other.label} is not downloaded on this device: download it first.`);
    expect(state.busy).toBeUndefined();
    state.busy = 'prepare';
    await expect(testLocalModel(state, other.id)).rejects.toThrow('The on-device model is busy');
    expect(state.busy).toBe('prepare');
  });

  it('frees the engine and the model when the generation fails', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true, replies: [new Error('device lost')] })));
    await expect(testLocalModel(state, other.id)).rejects.toThrow('The model failed while generating: device lost');
    expect(state.busy).toBeUndefined();
    expect(providerOf(state, other).loaded).toBe(false);
  });

  it('leaves the status to a refresh under way', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true, replies: ['A reply.'] })));
    state.refreshing = new Promise(() => {});
    await testLocalModel(state, other.id);
    expect(state.status).toEqual({ state: 'loading' });
  });
});
