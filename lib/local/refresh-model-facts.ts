import type { LocalAdapterState } from './local-adapter-state';
import { providerOf, setStatus } from './local-adapter-state';
import { restingStatus } from './resting-status';
import { updateRecommendation } from './update-recommendation';

/**
 * Read every model's cached flag again and ask each engine once where its model runs, then recommend and, unless the
 * engine is in use (its own status is showing), set the resting status. Calls made while one runs share it
 * (state.refreshing): the adapter starts one at creation, and a panel opening meanwhile must not double the engine
 * round trips. An engine that cannot say counts as "not cached" and "device unknown" here; restingStatus reports it.
 */
export function refreshModelFacts(state: LocalAdapterState): Promise<void> {
  state.refreshing ??= (async () => {
    await Promise.all(
      state.catalog.map(async (spec) => {
        const p = providerOf(state, spec);
        state.cached.set(spec.id, await p.isCached().catch(() => false));
        if (!state.devices.has(spec.id)) {
          await p.device().then(
            (d) => state.devices.set(spec.id, d),
            () => {},
          );
        }
      }),
    );
    await updateRecommendation(state);
    if (!state.busy) setStatus(state, await restingStatus(state));
  })().finally(() => {
    state.refreshing = undefined;
  });
  return state.refreshing;
}
