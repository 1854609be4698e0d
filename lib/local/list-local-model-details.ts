import type { LocalModelDetails } from '../messaging/options-messages';
import type { LocalAdapterState } from './local-adapter-state';
import { deviceTestOf, providerOf, recommendedId } from './local-adapter-state';
import { refreshModelFacts } from './refresh-model-facts';

/**
 * The options page's model list (the adapter's listModels): refresh first, since the page may be the first to look
 * after another context changed the cache, then every catalog model with this device's format and size, its cached
 * flag, the space its files take (asked only of cached models: the others have none to count) and its last test.
 */
export async function listLocalModelDetails(state: LocalAdapterState): Promise<LocalModelDetails[]> {
  await refreshModelFacts(state);
  return Promise.all(
    state.catalog.map(async (spec) => {
      const device = state.devices.get(spec.id);
      const isCached = state.cached.get(spec.id) ?? false;
      const storedBytes = isCached
        ? await providerOf(state, spec)
            .storedBytes()
            .catch(() => undefined)
        : undefined;
      const test = deviceTestOf(state, spec);
      return {
        id: spec.id,
        label: spec.label,
        brief: spec.brief,
        hardware: spec.hardware,
        bytes: device ? spec.bytes[device.dtype] : undefined,
        dtype: device?.dtype,
        cached: isCached,
        ...(storedBytes !== undefined ? { storedBytes } : {}),
        recommended: spec.id === recommendedId(state),
        ...(test ? { deviceTest: test } : {}),
      };
    }),
  );
}
