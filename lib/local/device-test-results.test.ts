import { describe, expect, it } from 'vitest';
import { deviceTestKey, formatDeviceSpeed, resultFor, sanitizeDeviceTests } from './device-test-results';
import type { DeviceTestResult } from './measure-device';

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
    expect(Object.values(kept).map((r) => r.modelId).sort()).toEqual([good.modelId, 'v']);
    expect(kept[deviceTestKey({ ...good, modelId: 'v' })]).not.toHaveProperty('extra');
    expect(sanitizeDeviceTests(null)).toEqual({});
    expect(sanitizeDeviceTests([good])).toEqual({});
  });
});
