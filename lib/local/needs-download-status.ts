import type { AdapterStatus } from '../agent/types';
import type { DeviceChoice } from './choose-device';
import type { LocalModelSpec } from './model-catalog';

/** The download card's caveat where there is no WebGPU adapter. */
export const NO_WEBGPU_NOTE = 'No WebGPU here: a smaller, slower model runs on the CPU.';

/**
 * "needs-download" for a model, with the size of the weights this device would fetch and, where the model would run
 * on the CPU, the caveat (so the person knows before the download why it will be slow).
 * @param device Where the model runs here; unknown yet: no size and no caveat.
 * @param note More to say after the caveat (why the last download stopped).
 */
export function needsDownloadStatus(spec: LocalModelSpec, device: DeviceChoice | undefined, note?: string): AdapterStatus {
  const notes = [device && device.device !== 'webgpu' ? NO_WEBGPU_NOTE : undefined, note].filter(Boolean);
  return {
    state: 'needs-download',
    bytes: device ? spec.bytes[device.dtype] : undefined,
    ...(notes.length ? { note: notes.join(' ') } : {}),
  };
}
