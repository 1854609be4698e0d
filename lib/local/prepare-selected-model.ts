import type { LocalAdapterState } from './local-adapter-state';
import { setStatus, specOf } from './local-adapter-state';
import { loadLocalModel } from './load-local-model';
import type { LocalModelSpec } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';

/**
 * The adapter's prepare (the person's click on the download card): download or load the selected model, holding the
 * engine meanwhile. Chrome's model downloads through Chrome, and its own status is shown after, whatever happened.
 * Rejects while a reply, a download or a device test holds the engine.
 */
export async function prepareSelectedModel(state: LocalAdapterState, signal?: AbortSignal): Promise<void> {
  if (state.busy) throw new Error('The on-device model is busy: wait for the download or the reply to finish.');
  state.busy = 'prepare';
  try {
    if (state.selected === PROMPT_API_CHOICE && state.promptApi) {
      const api = state.promptApi;
      setStatus(state, { state: 'downloading', progress: 0 });
      try {
        await api.prepare((progress) => setStatus(state, { state: 'downloading', progress }), signal);
      } finally {
        setStatus(state, await api.status());
      }
      return;
    }
    await loadLocalModel(state, specOf(state, state.selected) as LocalModelSpec, signal);
  } finally {
    state.busy = undefined;
  }
}
