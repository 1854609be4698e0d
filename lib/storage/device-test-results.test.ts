import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSettingsStore } from './settings-store';
import { deviceTestKey, formatDeviceSpeed, resultFor, sanitizeDeviceTests } from './device-test-results';
import type { DeviceTestResult } from '../messaging/options-messages';

const result = (over: Partial<DeviceTestResult> = {}): DeviceTestResult => ({
  modelId: 'onnx-community/Qwen3-0.6B-ONNX',
  device: 'webgpu',
  dtype: 'q4f16',
  testedAt: '2026-12-01T03:00:00.000Z',
  promptTokens: 1000,
  firstTokenMs: 800,
  tokensPerSecond: 24.4,
  newTokens: 60,
  memoryBytes: 600_000_000,
  memorySource: 'weights+kv',
  ...over,
});

describe('device test results', () => {
  it('keys a result by model and device, so WebGPU and CPU figures of one model both stay', () => {
    const gpu = result();
    const cpu = result({ device: 'wasm', dtype: 'q4', tokensPerSecond: 4 });
    const kept = sanitizeDeviceTests({ [deviceTestKey(gpu)]: gpu, [deviceTestKey(cpu)]: cpu });
    expect(Object.keys(kept)).toHaveLength(2);
    expect(resultFor(kept, gpu.modelId, { device: 'wasm', dtype: 'q4' })).toEqual(cpu);
    expect(resultFor(kept, gpu.modelId, { device: 'webgpu', dtype: 'q4f16' })).toEqual(gpu);
    expect(resultFor(kept, 'other')).toBeUndefined();
  });

  it('words the speed for the picker', () => {
    expect(formatDeviceSpeed(result())).toBe('24 tok/s on this device');
    expect(formatDeviceSpeed(result({ tokensPerSecond: 3.4 }))).toBe('3.4 tok/s on this device');
    expect(formatDeviceSpeed(result({ tokensPerSecond: undefined, firstTokenMs: 1250 }))).toBe('first token in 1.3 s on this device');
  });

  it('drops malformed or hostile stored entries instead of failing the page', () => {
    const good = result();
    const kept = sanitizeDeviceTests({
      a: good,
      b: { ...good, modelId: 'x', firstTokenMs: -1 },
      c: { ...good, modelId: 'y', device: 'quantum' },
      d: { ...good, modelId: 'z', testedAt: 'yesterday' },
      e: 'not an object',
      f: { ...good, modelId: 'w', tokensPerSecond: Number.NaN },
      g: { ...good, modelId: 'v', extra: '<img src=x onerror=alert(1)>' },
    });
    expect(
      Object.values(kept)
        .map((r) => r.modelId)
        .sort(),
    ).toEqual([good.modelId, 'v']);
    expect(kept[deviceTestKey({ ...good, modelId: 'v' })]).not.toHaveProperty('extra');
    expect(sanitizeDeviceTests(null)).toEqual({});
    expect(sanitizeDeviceTests([good])).toEqual({});
  });
});

describe('the settings store keeps device tests', () => {
  it('stores a result and reads it back, replacing only the same model on the same device', async () => {
    const area = createMemoryStorageArea();
    const store = createSettingsStore({ local: area });
    expect(await store.deviceTests()).toEqual({});
    await store.saveDeviceTest(result());
    await store.saveDeviceTest(result({ device: 'wasm', dtype: 'q4', tokensPerSecond: 4 }));
    await store.saveDeviceTest(result({ testedAt: '2026-12-02T03:00:00.000Z', tokensPerSecond: 30 }));
    // Read back by a second store over the same storage, as another context would.
    const again = await createSettingsStore({ local: area }).deviceTests();
    expect(Object.keys(again).sort()).toEqual(['onnx-community/Qwen3-0.6B-ONNX|wasm|q4', 'onnx-community/Qwen3-0.6B-ONNX|webgpu|q4f16']);
    expect(again['onnx-community/Qwen3-0.6B-ONNX|webgpu|q4f16'].tokensPerSecond).toBe(30);
  });

  it('refuses a malformed result and keeps what it had', async () => {
    const store = createSettingsStore({ local: createMemoryStorageArea() });
    await store.saveDeviceTest(result());
    await expect(store.saveDeviceTest({ ...result(), firstTokenMs: -5 })).rejects.toThrow('That test result is not well-formed.');
    expect(Object.values(await store.deviceTests())).toEqual([result()]);
  });

  it('tells subscribers when a result is kept, so the panel can show it', async () => {
    const store = createSettingsStore({ local: createMemoryStorageArea() });
    const heard = new Promise<void>((resolve) => store.subscribe(() => resolve()));
    await store.saveDeviceTest(result());
    await heard;
  });
});
