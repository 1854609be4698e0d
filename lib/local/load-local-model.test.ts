import { describe, expect, it } from 'vitest';
import type { AdapterStatus } from '../agent/types';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createLocalAdapterState, type LocalAdapterState, providerOf } from './local-adapter-state';
import { loadLocalModel } from './load-local-model';
import { recommendedModel } from './model-catalog';
import { NO_WEBGPU_NOTE } from './needs-download-status';

const spec = recommendedModel();

function heard(state: LocalAdapterState): AdapterStatus[] {
  const seen: AdapterStatus[] = [];
  state.listeners.add(() => seen.push(state.status));
  return seen;
}

describe('loadLocalModel', () => {
  it('downloads a model not on this device, reporting progress, and marks it cached', async () => {
    const state = createLocalAdapterState(stubEngines());
    const seen = heard(state);
    await loadLocalModel(state, spec);
    expect(seen).toEqual([
      { state: 'downloading', progress: 0 },
      { state: 'downloading', progress: 0.5 },
      { state: 'downloading', progress: 1 },
      { state: 'ready' },
    ]);
    expect(state.cached.get(spec.id)).toBe(true);
  });

  it('words a cached model as loading, and a model in memory as ready at once', async () => {
    const cached = createLocalAdapterState(stubEngines(() => ({ cached: true })));
    const seen = heard(cached);
    await loadLocalModel(cached, spec);
    expect(seen.map((s) => s.state)).toEqual(['loading', 'loading', 'loading', 'ready']);

    const engines = stubEngines(() => ({ loaded: true }));
    const loaded = createLocalAdapterState(engines);
    await loadLocalModel(loaded, spec);
    expect(loaded.status).toEqual({ state: 'ready' });
    expect(engines.made.get(spec.id)?.calls.prepare).toBe(0);
  });

  it('after a download cut off, offers it again saying it resumes, and throws what failed', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ prepareError: new Error('connection reset') })));
    state.devices.set(spec.id, { device: 'wasm', dtype: 'q4', numThreads: 1 });
    await expect(loadLocalModel(state, spec)).rejects.toThrow('connection reset');
    expect(state.status).toEqual({
      state: 'needs-download',
      bytes: spec.bytes.q4,
      note: `${NO_WEBGPU_NOTE} The last download stopped (connection reset); downloading again resumes it.`,
    });
    expect(state.cached.get(spec.id)).toBe(false);
  });

  it('is an error when every file is cached but the model fails to load', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ cached: true, prepareError: new Error('out of GPU memory') })));
    await expect(loadLocalModel(state, spec)).rejects.toThrow('out of GPU memory');
    expect(state.status).toEqual({ state: 'error', error: 'The on-device model failed to load: out of GPU memory' });
  });

  it('when stopped: ready if the files are all there, else the download card without a failure note', async () => {
    for (const [cachedAfterFailure, expected] of [
      [true, { state: 'ready' }],
      [false, { state: 'needs-download', bytes: undefined }],
    ] as const) {
      const controller = new AbortController();
      const state = createLocalAdapterState(stubEngines(() => ({ cachedAfterFailure })));
      const p = providerOf(state, spec);
      const load = loadLocalModel(state, spec, controller.signal);
      controller.abort();
      await expect(load).rejects.toThrow();
      expect(state.status).toEqual(expected);
      expect(p.loaded).toBe(false);
    }
  });
});
