import { describe, expect, it } from 'vitest';
import { modelBytes, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { storedModelBytes } from './stored-model-bytes';
import type { ModelFileOptions } from './transformers-runtime';

const models = useScriptedModelHost();
const fileOptions = async (): Promise<ModelFileOptions> => ({ revision: 'main', dtype: 'q4', device: 'cpu', include_processor: false });

describe('storedModelBytes', () => {
  it('is undefined until every file is in the cache, then their sizes, read without the network', async () => {
    const model = models.spec();
    const cache = createMemoryModelCache();
    const provider = models.provider(model, { cache });
    // The provider's query sets transformers.js's env (host, cache) as storedModelBytes finds it in the provider.
    await provider.isCached();
    expect(await storedModelBytes(model.id, 'main', fileOptions)).toBeUndefined();
    await provider.prepare(() => {});
    const requests = models.host.requests.length;
    const bytes = await storedModelBytes(model.id, 'main', fileOptions);
    expect(bytes).toBeGreaterThan(modelBytes);
    expect(models.host.requests.length).toBe(requests);
  });

  it('is undefined when the cache cannot be read', async () => {
    const model = models.spec();
    const cache = createMemoryModelCache();
    const provider = models.provider(model, { cache });
    await provider.prepare(() => {});
    cache.match = () => Promise.reject(new Error('The cache is gone.'));
    expect(await storedModelBytes(model.id, 'main', fileOptions)).toBeUndefined();
  });
});
