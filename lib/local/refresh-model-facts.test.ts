import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createLocalAdapterState } from './local-adapter-state';
import { modelCatalog, recommendedModel } from './model-catalog';
import { refreshModelFacts } from './refresh-model-facts';

const [first, second] = modelCatalog;

describe('refreshModelFacts', () => {
  it('reads every model’s cached flag and device, recommends, and sets the resting status', async () => {
    const engines = stubEngines((model) => ({ cached: model.id === recommendedModel().id }));
    const state = createLocalAdapterState(engines);
    const heard: string[] = [];
    state.listeners.add(() => heard.push(state.status.state));
    await refreshModelFacts(state);
    expect(engines.made.size).toBe(modelCatalog.length);
    expect(state.cached.get(recommendedModel().id)).toBe(true);
    expect([...state.cached.values()].filter(Boolean)).toHaveLength(1);
    expect(state.devices.size).toBe(modelCatalog.length);
    expect(state.recommendation?.reason).toContain('No WebGPU');
    expect(heard).toEqual(['ready']);
  });

  it('shares one refresh between callers while it runs, and starts a new one after', async () => {
    const state = createLocalAdapterState(stubEngines());
    const a = refreshModelFacts(state);
    expect(refreshModelFacts(state)).toBe(a);
    await a;
    expect(state.refreshing).toBeUndefined();
    expect(refreshModelFacts(state)).not.toBe(a);
  });

  it('counts an engine that cannot answer as not cached and its device as unknown', async () => {
    const engines = stubEngines((model) =>
      model.id === second.id ? { cachedError: new Error('gone'), device: new Error('gone') } : { cached: true },
    );
    const state = createLocalAdapterState({ ...engines, modelId: first.id });
    await refreshModelFacts(state);
    expect(state.cached.get(second.id)).toBe(false);
    expect(state.devices.has(second.id)).toBe(false);
    expect(state.cached.get(first.id)).toBe(true);
  });

  it('keeps the status while the engine is in use (its own status is showing)', async () => {
    const state = createLocalAdapterState(stubEngines());
    state.busy = 'prepare';
    state.status = { state: 'downloading', progress: 0.5 };
    await refreshModelFacts(state);
    expect(state.status).toEqual({ state: 'downloading', progress: 0.5 });
  });
});
