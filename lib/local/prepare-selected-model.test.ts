import { describe, expect, it } from 'vitest';
import type { AdapterStatus } from '../agent/types';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createPromptApiProvider, type LanguageModelLike, NO_PROMPT_API } from './create-prompt-api-provider';
import { createLocalAdapterState } from './local-adapter-state';
import { recommendedModel } from './model-catalog';
import { prepareSelectedModel } from './prepare-selected-model';
import { PROMPT_API_CHOICE } from './recommend-model';

describe('prepareSelectedModel', () => {
  it('downloads the selected catalog model, holding the engine until it is done', async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const state = createLocalAdapterState(stubEngines(() => ({ prepareGate: gate })));
    const prepared = prepareSelectedModel(state);
    expect(state.busy).toBe('prepare');
    await expect(prepareSelectedModel(state)).rejects.toThrow('The on-device model is busy');
    open();
    await prepared;
    expect(state.busy).toBeUndefined();
    expect(state.status).toEqual({ state: 'ready' });
    expect(state.cached.get(recommendedModel().id)).toBe(true);
  });

  it('frees the engine when the download fails', async () => {
    const state = createLocalAdapterState(stubEngines(() => ({ prepareError: new Error('no network') })));
    await expect(prepareSelectedModel(state)).rejects.toThrow('no network');
    expect(state.busy).toBeUndefined();
  });

  it('has Chrome download its own model, then shows Chrome’s status whatever happened', async () => {
    let availability: 'downloadable' | 'available' = 'downloadable';
    // Chrome's LanguageModel cannot run in Node: this stand-in downloads at create, reporting progress as Chrome does.
    const fakeLanguageModel: LanguageModelLike = {
      availability: async () => availability,
      create: async (options = {}) => {
        const target = new EventTarget();
        options.monitor?.(target);
        target.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: 0.5 }));
        availability = 'available';
        return { inputQuota: 100, inputUsage: 0, measureInputUsage: async () => 0, prompt: async () => '', destroy: () => {} };
      },
    };
    const engines = stubEngines();
    const state = createLocalAdapterState({
      ...engines,
      promptApi: createPromptApiProvider(fakeLanguageModel),
      modelId: PROMPT_API_CHOICE,
    });
    const seen: AdapterStatus[] = [];
    state.listeners.add(() => seen.push(state.status));
    await prepareSelectedModel(state);
    expect(seen[0]).toEqual({ state: 'downloading', progress: 0 });
    expect(seen.at(-1)).toEqual({ state: 'ready' });
    expect(engines.made.size).toBe(0);

    const none = createLocalAdapterState({ ...stubEngines(), promptApi: createPromptApiProvider(undefined), modelId: PROMPT_API_CHOICE });
    await expect(prepareSelectedModel(none)).rejects.toThrow();
    expect(none.status).toEqual({ state: 'unavailable', reason: NO_PROMPT_API });
    expect(none.busy).toBeUndefined();
  });
});
