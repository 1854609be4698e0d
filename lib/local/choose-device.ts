import type { LocalDtype, LocalModelSpec } from './model-catalog';

/** The slice of `navigator.gpu` the choice needs. */
export interface GpuLike {
  requestAdapter: () => Promise<{ features: { has: (feature: string) => boolean } } | null>;
}

/** Facts about the context the engine runs in; the entry point reads them from its globals. */
export interface DeviceFacts {
  /** `navigator.gpu`, when the context has it. */
  gpu?: GpuLike | null;
  /** `crossOriginIsolated`: SharedArrayBuffer, hence multi-threaded WASM. */
  crossOriginIsolated?: boolean;
  /** `navigator.hardwareConcurrency`. */
  hardwareConcurrency?: number;
  /** The CPU backend's name: 'wasm' in browsers (onnxruntime-web), 'cpu' in Node (onnxruntime-node). */
  cpuDevice?: 'wasm' | 'cpu';
}

/** Where and how a model runs. */
export interface DeviceChoice {
  device: 'webgpu' | 'wasm' | 'cpu';
  dtype: LocalDtype;
  /** WASM threads (1 unless cross-origin isolated). */
  numThreads: number;
}

/**
 * WebGPU when an adapter exists (q4f16 only with shader-f16, since f16 math without it fails or crawls), else the
 * CPU backend with q4; multi-threaded only where cross-origin isolated, leaving a core for the page.
 */
export async function chooseDevice(facts: DeviceFacts, model: Pick<LocalModelSpec, 'bytes'>): Promise<DeviceChoice> {
  const has = (dtype: LocalDtype) => model.bytes[dtype] !== undefined;
  const fallback = (order: LocalDtype[]): LocalDtype => {
    const found = order.find(has);
    if (found) return found;
    // A model published for shader-f16 GPUs only (LFM3: its graphs need WebGPU's f16) says what it lacks.
    if (has('q4f16')) throw new Error('This model runs only on WebGPU with shader-f16, which this browser does not offer here.');
    throw new Error('This model lists no weight format the on-device engine can run.');
  };
  let adapter: Awaited<ReturnType<GpuLike['requestAdapter']>> = null;
  try {
    adapter = facts.gpu ? await facts.gpu.requestAdapter() : null;
  } catch {
    // A GPU that refuses an adapter is no GPU for us: fall back to the CPU.
    adapter = null;
  }
  if (adapter) {
    const f16 = adapter.features.has('shader-f16');
    return { device: 'webgpu', dtype: fallback(f16 ? ['q4f16', 'q4', 'fp32'] : ['q4', 'fp32']), numThreads: 1 };
  }
  const cores = facts.hardwareConcurrency ?? 1;
  const numThreads = facts.crossOriginIsolated ? Math.max(1, Math.min(4, cores - 1)) : 1;
  return { device: facts.cpuDevice ?? 'wasm', dtype: fallback(['q4', 'fp32']), numThreads };
}
