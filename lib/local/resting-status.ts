import type { AdapterStatus } from '../agent/types';
import { errorMessage } from '../shared/error-message';
import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, specOf } from './local-adapter-state';
import type { LocalModelSpec } from './model-catalog';
import { needsDownloadStatus } from './needs-download-status';
import { PROMPT_API_CHOICE } from './recommend-model';

/**
 * The status of the selected model when nothing is running: Chrome's model says its own; a catalog model is ready
 * when its files are cached or it is in memory (it loads on the first run), else it needs a download. Asks the engine
 * where the model runs the first time (remembered in state.devices); an engine that cannot answer makes the adapter
 * unavailable, with its words.
 */
export async function restingStatus(state: LocalAdapterState): Promise<AdapterStatus> {
  if (state.selected === PROMPT_API_CHOICE && state.promptApi) return state.promptApi.status();
  const spec = specOf(state, state.selected) as LocalModelSpec;
  if (!state.devices.has(spec.id)) {
    try {
      state.devices.set(spec.id, await providerOf(state, spec).device());
    } catch (error) {
      return { state: 'unavailable', reason: errorMessage(error) };
    }
  }
  return state.cached.get(spec.id) || providerOf(state, spec).loaded
    ? { state: 'ready' }
    : needsDownloadStatus(spec, state.devices.get(spec.id));
}
