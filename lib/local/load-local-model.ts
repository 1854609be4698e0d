import type { AdapterStatus } from '../agent/types';
import { errorMessage } from '../shared/error-message';
import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, setStatus } from './local-adapter-state';
import type { LocalModelSpec } from './model-catalog';
import { needsDownloadStatus } from './needs-download-status';

/**
 * Load (or download) a catalog model, reporting it in the status; throws what failed. A model already on this device
 * shows "loading", never "downloading". After a failure the cache is read again, so the status says what is true
 * now: stopped by the person (ready if the files are all there, else the download card), a cached model that failed
 * to load (an error), or a download cut off (the card again, saying the next one resumes).
 */
export async function loadLocalModel(state: LocalAdapterState, spec: LocalModelSpec, signal?: AbortSignal): Promise<void> {
  const p = providerOf(state, spec);
  if (p.loaded) {
    setStatus(state, { state: 'ready' });
    return;
  }
  const wasCached = state.cached.get(spec.id) ?? (await p.isCached().catch(() => false));
  const progressStatus = (progress: number): AdapterStatus =>
    wasCached ? { state: 'loading', progress } : { state: 'downloading', progress };
  setStatus(state, progressStatus(0));
  try {
    await p.prepare((progress) => setStatus(state, progressStatus(progress)), signal);
    state.cached.set(spec.id, true);
    setStatus(state, { state: 'ready' });
  } catch (error) {
    const nowCached = await p.isCached().catch(() => false);
    state.cached.set(spec.id, nowCached);
    if (signal?.aborted) setStatus(state, nowCached ? { state: 'ready' } : needsDownloadStatus(spec, state.devices.get(spec.id)));
    else if (nowCached) setStatus(state, { state: 'error', error: `The on-device model failed to load: ${errorMessage(error)}` });
    else {
      setStatus(
        state,
        needsDownloadStatus(
          spec,
          state.devices.get(spec.id),
          `The last download stopped (${errorMessage(error)}); downloading again resumes it.`,
        ),
      );
    }
    throw error;
  }
}
