import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createLocalAdapterState, providerOf } from './local-adapter-state';
import { listLocalModelDetails } from './list-local-model-details';
import { modelCatalog, recommendedModel } from './model-catalog';

const spec = recommendedModel();

describe('listLocalModelDetails', () => {
  it('refreshes, then gives each model’s format, size, cached flag and stored bytes (asked of cached models only)', async () => {
    const asked: string[] = [];
    const engines = stubEngines((model) => ({ cached: model.id === spec.id, storedBytes: 4321 }));
    const state = createLocalAdapterState(engines);
    for (const model of modelCatalog) {
      const stub = providerOf(state, model);
      const storedBytes = stub.storedBytes;
      stub.storedBytes = async () => {
        asked.push(model.id);
        return storedBytes();
      };
    }
    const listed = await listLocalModelDetails(state);
    expect(listed.map((m) => m.id)).toEqual(modelCatalog.map((m) => m.id));
    expect(listed.find((m) => m.id === spec.id)).toEqual({
      id: spec.id,
      label: spec.label,
      brief: spec.brief,
      hardware: spec.hardware,
      bytes: spec.bytes.q4,
      dtype: 'q4',
      cached: true,
      storedBytes: 4321,
      recommended: true,
    });
    expect(listed.filter((m) => m.id !== spec.id).every((m) => !m.cached && m.storedBytes === undefined)).toBe(true);
    expect(asked).toEqual([spec.id]);
  });

  it('sees a cache another context changed, and leaves out stored bytes the engine cannot count', async () => {
    const engines = stubEngines();
    const state = createLocalAdapterState(engines);
    expect((await listLocalModelDetails(state)).some((m) => m.cached)).toBe(false);
    const stub = engines.made.get(spec.id);
    if (!stub) throw new Error('no engine made');
    stub.stub.cached = true;
    stub.storedBytes = async () => {
      throw new Error('cache unreadable');
    };
    const listed = await listLocalModelDetails(state);
    expect(listed.find((m) => m.id === spec.id)).toMatchObject({ cached: true });
    expect(listed.find((m) => m.id === spec.id)).not.toHaveProperty('storedBytes');
  });
});
