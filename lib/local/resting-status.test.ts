import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createPromptApiProvider, NO_PROMPT_API } from './create-prompt-api-provider';
import { createLocalAdapterState } from './local-adapter-state';
import { recommendedModel } from './model-catalog';
import { NO_WEBGPU_NOTE } from './needs-download-status';
import { PROMPT_API_CHOICE } from './recommend-model';
import { restingStatus } from './resting-status';

const spec = recommendedModel();

describe('restingStatus', () => {
  it('needs a download, with the size for this device, when the selected model is neither cached nor loaded', async () => {
    const state = createLocalAdapterState(stubEngines());
    expect(await restingStatus(state)).toEqual({ state: 'needs-download', bytes: spec.bytes.q4, note: NO_WEBGPU_NOTE });
    // The device was asked once and kept.
    expect(state.devices.get(spec.id)).toEqual({ device: 'cpu', dtype: 'q4', numThreads: 1 });
  });

  it('is ready when the files are cached (as last read) or the model is in memory', async () => {
    const cached = createLocalAdapterState(stubEngines());
    cached.cached.set(spec.id, true);
    expect(await restingStatus(cached)).toEqual({ state: 'ready' });
    const loaded = createLocalAdapterState(stubEngines(() => ({ loaded: true })));
    expect(await restingStatus(loaded)).toEqual({ state: 'ready' });
  });

  it('is unavailable, in the engine’s words, when the engine cannot say where the model runs', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ device: new Error('The engine stopped') })));
    expect(await restingStatus(state)).toEqual({ state: 'unavailable', reason: 'The engine stopped' });
    expect(state.devices.size).toBe(0);
  });

  it('asks no engine for Chrome’s built-in model: its own status stands', async () => {
    const engines = stubEngines();
    const state = createLocalAdapterState({ ...engines, promptApi: createPromptApiProvider(undefined), modelId: PROMPT_API_CHOICE });
    expect(await restingStatus(state)).toEqual({ state: 'unavailable', reason: NO_PROMPT_API });
    expect(engines.made.size).toBe(0);
  });
});
