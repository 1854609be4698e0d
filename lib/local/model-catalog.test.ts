import { describe, expect, it } from 'vitest';
import { chooseDevice } from './choose-device';
import { modelCatalog, recommendedModel } from './model-catalog';

describe('modelCatalog', () => {
  it('recommends Qwen3 0.6B and offers LFM2 1.2B Tool and Qwen3 1.7B', () => {
    expect(recommendedModel().id).toBe('onnx-community/Qwen3-0.6B-ONNX');
    expect(modelCatalog.map((m) => m.label)).toEqual(['Qwen3 0.6B', 'LFM2 1.2B Tool', 'Qwen3 1.7B']);
    expect(new Set(modelCatalog.map((m) => m.id)).size).toBe(modelCatalog.length);
  });

  it('runs every model on every device: WebGPU with and without shader-f16, and the CPU', async () => {
    for (const model of modelCatalog) {
      const gpu = (features: string[]) => ({ requestAdapter: async () => ({ features: new Set(features) }) });
      expect(await chooseDevice({ gpu: gpu(['shader-f16']) }, model)).toMatchObject({ dtype: 'q4f16' });
      expect(await chooseDevice({ gpu: gpu([]) }, model)).toMatchObject({ dtype: 'q4' });
      expect(await chooseDevice({}, model)).toMatchObject({ device: 'wasm', dtype: 'q4' });
      // Every model stops after its tool-call marker, so one step runs one call.
      expect(model.toolCallEnd).toBeTruthy();
    }
  });
});
