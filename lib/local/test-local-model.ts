import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, setStatus, specOf } from './local-adapter-state';
import { type DeviceTestPhase, type DeviceTestResult, measureDevice } from './measure-device';
import { restingStatus } from './resting-status';

/**
 * The adapter's testModel ("Test this device"): measureDevice on a downloaded catalog model, holding the engine.
 * Rejects, in words, for an unknown id, while the engine is in use, or when the model is not downloaded. A model
 * other than the selected one is unloaded after, and the resting status is set again (unless a refresh will).
 */
export async function testLocalModel(
  state: LocalAdapterState,
  id: string,
  onPhase?: (phase: DeviceTestPhase) => void,
  signal?: AbortSignal,
): Promise<DeviceTestResult> {
  const spec = specOf(state, id);
  if (!spec) throw new Error(`There is no on-device model "${id}".`);
  if (state.busy) throw new Error('The on-device model is busy: wait for the reply or the download to finish, then test.');
  state.busy = 'test';
  state.testing = id;
  try {
    const p = providerOf(state, spec);
    if (!(await p.isCached().catch(() => false))) throw new Error(`${spec.label} is not downloaded on this device: download it first.`);
    try {
      return await measureDevice(p, { onPhase, signal });
    } finally {
      // Testing another model than the one in use must not leave two models in memory.
      if (id !== state.selected) await p.unload().catch(() => {});
    }
  } finally {
    state.busy = undefined;
    state.testing = undefined;
    // The test loaded this model; a different selected model's status is unchanged, but panels hear either way.
    if (!state.refreshing) setStatus(state, await restingStatus(state));
  }
}
