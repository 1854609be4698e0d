import { describe, expect, it } from 'vitest';
import { modelFile, useScriptedModelHost } from '../../tests/model/scripted-model-fixture';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { chooseDevice } from './choose-device';
import { configureTransformersEnv } from './configure-transformers-env';
import { loadTransformersModel } from './load-transformers-model';
import type { LocalModelSpec } from './model-catalog';
import { activeDownloads } from './resumable-fetch';
import { type CausalLM, listModelFiles, loadTokenizerFiles, type Tokenizer } from './transformers-runtime';

const models = useScriptedModelHost();

/** The load's inputs for a fresh scripted model, with the env set as its provider would set it. */
async function inputsFor(model: LocalModelSpec) {
  const choice = await chooseDevice({ cpuDevice: 'cpu' }, model);
  configureTransformersEnv(choice, {
    remoteHost: models.host.url,
    fetch: (input, init) => fetch(input, init),
    cache: createMemoryModelCache(),
  });
  const files = await listModelFiles(model.id, { revision: 'main', dtype: choice.dtype, device: choice.device, include_processor: false });
  return {
    spec: model,
    revision: 'main',
    choice,
    files,
    loadTokenizer: (progress_callback: Parameters<typeof loadTokenizerFiles>[1]['progress_callback']) =>
      loadTokenizerFiles(model.id, { revision: 'main', progress_callback }),
    retries: 3,
    retryDelayMs: 5,
  };
}

describe('loadTransformersModel', () => {
  it('downloads every file under one progress bar from 0 to 1, and hands the model over before reporting 1', async () => {
    const model = models.spec();
    const events: (number | 'loaded')[] = [];
    let loaded: { tokenizer: Tokenizer; model: CausalLM } | undefined;
    await loadTransformersModel({
      ...(await inputsFor(model)),
      onProgress: (v) => events.push(v),
      onLoaded: (pair) => {
        loaded = pair;
        events.push('loaded');
      },
    });
    const values = events.filter((e): e is number => e !== 'loaded');
    expect(values[0]).toBe(0);
    expect(values.some((v) => v > 0 && v < 1)).toBe(true);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(events.slice(-2)).toEqual(['loaded', 1]);
    expect(models.host.downloads(`${model.id}/${modelFile}`)).toBe(1);
    expect(activeDownloads.size).toBe(0);
    expect(typeof loaded?.tokenizer.decode).toBe('function');
    await loaded?.model.dispose();
  });

  it('rejects a stopped load with the signal’s reason, keeps nothing, and leaves no download behind', async () => {
    const model = models.spec();
    const stop = new AbortController();
    const reason = new DOMException('The person cancelled the download.', 'AbortError');
    let loaded = false;
    const load = loadTransformersModel({
      ...(await inputsFor(model)),
      signal: stop.signal,
      onProgress: () => stop.abort(reason),
      onLoaded: () => {
        loaded = true;
      },
    });
    await expect(load).rejects.toBe(reason);
    expect(loaded).toBe(false);
    expect(activeDownloads.size).toBe(0);
  });
});
