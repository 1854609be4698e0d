import type { ModelChoice } from '../agent/types';
import { formatDeviceSpeed } from '../storage/device-test-results';
import type { LocalAdapterState } from './local-adapter-state';
import { deviceTestOf, recommendedId } from './local-adapter-state';
import { PROMPT_API_CHOICE } from './recommend-model';

/**
 * The picker's list (the adapter's models()): every catalog model with this device's download size, cached flag,
 * the recommendation (and why, once the device's facts gave one), the selection and any measured speed; then
 * Chrome's built-in model where it was given. Synchronous: it reads what the last refresh learnt.
 */
export function localModelChoices(state: LocalAdapterState): ModelChoice[] {
  const list: ModelChoice[] = state.catalog.map((spec) => {
    const device = state.devices.get(spec.id);
    const test = deviceTestOf(state, spec);
    return {
      id: spec.id,
      label: spec.label,
      brief: spec.brief,
      bytes: device ? spec.bytes[device.dtype] : undefined,
      cached: state.cached.get(spec.id) ?? false,
      recommended: spec.id === recommendedId(state),
      ...(spec.id === state.recommendation?.id ? { why: state.recommendation.reason } : {}),
      selected: spec.id === state.selected,
      ...(test ? { measured: formatDeviceSpeed(test) } : {}),
    };
  });
  if (state.promptApi) {
    list.push({
      id: PROMPT_API_CHOICE,
      label: 'Chrome built-in',
      brief: "Chrome's own model: nothing to download here, where Chrome offers it.",
      ...(state.recommendation?.id === PROMPT_API_CHOICE ? { recommended: true, why: state.recommendation.reason } : {}),
      selected: state.selected === PROMPT_API_CHOICE,
    });
  }
  return list;
}
