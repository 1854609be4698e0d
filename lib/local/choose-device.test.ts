import { describe, expect, it } from 'vitest';
import { chooseDevice, type GpuLike } from './choose-device';

// navigator.gpu cannot run in Node: these stand-ins answer requestAdapter() like a browser would.
const mockGpu = (features: string[] | null): GpuLike => ({
  requestAdapter: async () => (features ? { features: new Set(features) } : null),
});
const both = { bytes: { q4f16: 1, q4: 2 } };

describe('chooseDevice', () => {
  it('takes WebGPU with q4f16 only when the adapter has shader-f16', async () => {
    expect(await chooseDevice({ gpu: mockGpu(['shader-f16']) }, both)).toEqual({
      device: 'webgpu',
      dtype: 'q4f16',
      numThreads: 1,
    });
    expect(await chooseDevice({ gpu: mockGpu([]) }, both)).toMatchObject({ device: 'webgpu', dtype: 'q4' });
  });

  it('falls back to WASM with q4 when there is no adapter, threaded only when cross-origin isolated', async () => {
    expect(await chooseDevice({ gpu: mockGpu(null), hardwareConcurrency: 8 }, both)).toEqual({
      device: 'wasm',
      dtype: 'q4',
      numThreads: 1,
    });
    expect(await chooseDevice({ crossOriginIsolated: true, hardwareConcurrency: 8 }, both)).toMatchObject({
      numThreads: 4,
    });
    expect(await chooseDevice({ crossOriginIsolated: true, hardwareConcurrency: 2 }, both)).toMatchObject({
      numThreads: 1,
    });
    const failing: GpuLike = { requestAdapter: () => Promise.reject(new Error('GPU process crashed')) };
    expect(await chooseDevice({ gpu: failing, cpuDevice: 'cpu' }, both)).toMatchObject({ device: 'cpu' });
  });

  it('says so when the model has no format it can run', async () => {
    await expect(chooseDevice({}, { bytes: {} })).rejects.toThrow('no weight format');
  });

  it('runs a q4f16-only model (LFM3) on WebGPU with shader-f16 only, and says what is missing elsewhere', async () => {
    const f16Only = { bytes: { q4f16: 1 } };
    expect(await chooseDevice({ gpu: mockGpu(['shader-f16']) }, f16Only)).toMatchObject({ device: 'webgpu', dtype: 'q4f16' });
    await expect(chooseDevice({ gpu: mockGpu([]) }, f16Only)).rejects.toThrow('only on WebGPU with shader-f16');
    await expect(chooseDevice({}, f16Only)).rejects.toThrow('only on WebGPU with shader-f16');
  });
});
