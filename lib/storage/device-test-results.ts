import { formatSeconds } from '../shared/format-seconds';
import type { DeviceTestResult } from '../messaging/options-messages';

/** Stored results of "Test this device", one per model and device (webgpu/wasm and format). */
export type DeviceTestResults = Record<string, DeviceTestResult>;

/** The key a result is kept under: the same model tested on WebGPU and on the CPU keeps both figures. */
export function deviceTestKey(result: Pick<DeviceTestResult, 'modelId' | 'device' | 'dtype'>): string {
  return `${result.modelId}|${result.device}|${result.dtype}`;
}

/** The newest result for a model on whichever device it was tested (the device it runs on now, first). */
export function resultFor(
  results: DeviceTestResults,
  modelId: string,
  device?: { device: string; dtype: string },
): DeviceTestResult | undefined {
  if (device) {
    const exact =
      results[
        deviceTestKey({ modelId, device: device.device as DeviceTestResult['device'], dtype: device.dtype as DeviceTestResult['dtype'] })
      ];
    if (exact) return exact;
  }
  return Object.values(results)
    .filter((r) => r.modelId === modelId)
    .sort((a, b) => b.testedAt.localeCompare(a.testedAt))[0];
}

/** "24 tok/s on this device", or what the test could say when the model wrote too little to time its decoding. */
export function formatDeviceSpeed(result: DeviceTestResult): string {
  return result.tokensPerSecond !== undefined
    ? `${result.tokensPerSecond >= 10 ? Math.round(result.tokensPerSecond) : result.tokensPerSecond} tok/s on this device`
    : `first token in ${formatSeconds(result.firstTokenMs)} on this device`;
}

const MAX_RESULTS = 50;
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * Results as read from storage, keeping only well-formed entries (at most 50, newest first): storage holds what any
 * earlier version wrote, and a bad entry must not break the options page or the panel.
 */
export function sanitizeDeviceTests(value: unknown): DeviceTestResults {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const kept = Object.values(value as Record<string, unknown>).filter((v): v is DeviceTestResult => {
    const r = v as Partial<DeviceTestResult> | null;
    return (
      !!r &&
      typeof r.modelId === 'string' &&
      r.modelId.length > 0 &&
      r.modelId.length <= 200 &&
      (r.device === 'webgpu' || r.device === 'wasm' || r.device === 'cpu') &&
      typeof r.dtype === 'string' &&
      r.dtype.length <= 20 &&
      typeof r.testedAt === 'string' &&
      !Number.isNaN(Date.parse(r.testedAt)) &&
      num(r.firstTokenMs) &&
      num(r.newTokens) &&
      num(r.promptTokens) &&
      (r.tokensPerSecond === undefined || num(r.tokensPerSecond)) &&
      (r.memoryBytes === undefined || num(r.memoryBytes)) &&
      (r.memorySource === 'weights' || r.memorySource === 'weights+kv')
    );
  });
  kept.sort((a, b) => b.testedAt.localeCompare(a.testedAt));
  const results: DeviceTestResults = {};
  for (const r of kept.slice(0, MAX_RESULTS)) {
    const key = deviceTestKey(r);
    results[key] ??= {
      modelId: r.modelId,
      device: r.device,
      dtype: r.dtype,
      testedAt: r.testedAt,
      promptTokens: r.promptTokens,
      firstTokenMs: r.firstTokenMs,
      ...(r.tokensPerSecond !== undefined ? { tokensPerSecond: r.tokensPerSecond } : {}),
      newTokens: r.newTokens,
      ...(r.memoryBytes !== undefined ? { memoryBytes: r.memoryBytes } : {}),
      memorySource: r.memorySource,
    };
  }
  return results;
}
