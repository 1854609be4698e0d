import type { LocalModelSpec } from './model-catalog';

/** What the device offers, as far as the choice of model goes. */
interface DeviceClass {
  /** A WebGPU adapter exists. */
  webgpu: boolean;
  /** It has shader-f16 (q4f16 weights run). */
  shaderF16: boolean;
  /** `navigator.deviceMemory` in GB (browsers round it and cap it at 8); unknown: assume 4. */
  memoryGb?: number;
  /** Chrome's built-in model (the Prompt API) can be used here. */
  promptApi: boolean;
}

/** The Prompt API's model id in the picker. */
export const PROMPT_API_CHOICE = 'chrome-built-in';

/** Share of the device's memory a model's weights may take: the browser, the page and the KV cache need the rest. */
const WEIGHTS_SHARE = 0.4;

/**
 * The model that fits the device, and why, in words for the panel:
 * - WebGPU with shader-f16: the strongest model whose q4f16 weights fit in memory;
 * - WebGPU without shader-f16: the strongest model with q4 weights that fit;
 * - no WebGPU: Chrome's built-in model where it exists, else the smallest model (the CPU is slow with anything
 *   larger).
 * "Strongest" is the catalog's `strength` (published tool-calling scores).
 */
export function recommendModel(catalog: readonly LocalModelSpec[], device: DeviceClass): { id: string; reason: string } {
  const memoryGb = device.memoryGb ?? 4;
  const budget = memoryGb * 1e9 * WEIGHTS_SHARE;
  const smallest = [...catalog].sort((a, b) => size(a) - size(b))[0];
  if (!device.webgpu) {
    if (device.promptApi) {
      return { id: PROMPT_API_CHOICE, reason: 'No WebGPU here, so Chrome’s built-in model: nothing to download, and faster than the CPU.' };
    }
    return { id: smallest.id, reason: `No WebGPU here: ${smallest.label}, the smallest, is the one the CPU runs at a usable speed.` };
  }
  const dtype = device.shaderF16 ? 'q4f16' : 'q4';
  const fitting = catalog
    .filter((m) => m.bytes[dtype] !== undefined && (m.bytes[dtype] as number) <= budget)
    .sort((a, b) => (b.strength ?? 0) - (a.strength ?? 0));
  const pick = fitting[0];
  if (!pick) {
    return { id: smallest.id, reason: `Little memory here (${memoryGb} GB): ${smallest.label}, the smallest.` };
  }
  const gpu = device.shaderF16 ? 'WebGPU with shader-f16' : 'WebGPU without shader-f16 (so q4 weights)';
  return {
    id: pick.id,
    reason: `${gpu} and ${memoryGb} GB of memory: ${pick.label} is the strongest tool caller that fits.`,
  };
}

function size(model: LocalModelSpec): number {
  return Math.min(...Object.values(model.bytes).filter((n): n is number => typeof n === 'number'));
}
