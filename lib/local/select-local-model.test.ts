import { describe, expect, it } from 'vitest';
import { stubEngines } from '../testing/stub-transformers-provider';
import { createPromptApiProvider } from './create-prompt-api-provider';
import { createLocalAdapterState, providerOf } from './local-adapter-state';
import { modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';
import { selectLocalModel } from './select-local-model';

const current = recommendedModel();
const other = modelCatalog.find((m) => m.id !== current.id) ?? current;

describe('selectLocalModel', () => {
  it('switches to the pick: remembers it, frees the old model, says loading, then the new one’s resting status', async () => {
    const engines = stubEngines((model) => ({ loaded: model.id === current.id, cached: model.id === other.id }));
    const state = createLocalAdapterState(engines);
    const old = providerOf(state, current);
    const saved: string[] = [];
    const heard: string[] = [];
    state.listeners.add(() => heard.push(state.status.state));
    await selectLocalModel(state, other.id, (id) => saved.push(id));
    expect(state).toMatchObject({ selected: other.id, personChose: true });
    expect(saved).toEqual([other.id]);
    expect(old.loaded).toBe(false);
    expect(heard).toEqual(['loading', 'ready']);
  });

  it('makes re-picking the selected model the person’s choice, with nothing else done', async () => {
    const engines = stubEngines();
    const state = createLocalAdapterState(engines);
    const saved: string[] = [];
    await selectLocalModel(state, current.id, (id) => saved.push(id));
    expect(state.personChose).toBe(true);
    expect(saved).toEqual([]);
    expect(engines.made.size).toBe(0);
  });

  it('refuses an id not offered, and any switch while the engine is in use', async () => {
    const state = createLocalAdapterState(stubEngines());
    await expect(selectLocalModel(state, 'nope')).rejects.toThrow('There is no on-device model "nope".');
    await expect(selectLocalModel(state, PROMPT_API_CHOICE)).rejects.toThrow(`There is no on-device model "${PROMPT_API_CHOICE}".`);
    state.busy = 'run';
    await expect(selectLocalModel(state, other.id)).rejects.toThrow('Wait for the reply or the download to finish');
    expect(state).toMatchObject({ selected: current.id, personChose: false });
  });

  it('switches to and from Chrome’s model, which has no engine of ours to free', async () => {
    const engines = stubEngines();
    const state = createLocalAdapterState({ ...engines, promptApi: createPromptApiProvider(undefined) });
    await selectLocalModel(state, PROMPT_API_CHOICE);
    expect(engines.made.get(current.id)?.calls.unload).toBe(1);
    await selectLocalModel(state, other.id);
    expect(state.selected).toBe(other.id);
    expect(engines.made.get(current.id)?.calls.unload).toBe(1);
  });
});
