import { describe, expect, it } from 'vitest';
import { chooseDevice } from './choose-device';
import { modelCatalog, recommendedModel } from './model-catalog';

const gpu = (features: string[]) => ({ requestAdapter: async () => ({ features: new Set(features) }) });

describe('modelCatalog', () => {
  it('offers the evidence-chosen models, Qwen3 0.6B as the smallest, and no longer LFM2 1.2B Tool', () => {
    expect(modelCatalog.map((m) => m.label)).toEqual([
      'Qwen3 0.6B',
      'Qwen3.5 0.8B',
      'LFM2.5 1.2B',
      'Qwen3 1.7B',
      'LFM3 1.7B',
      'Qwen3.5 2B',
    ]);
    expect(new Set(modelCatalog.map((m) => m.id)).size).toBe(modelCatalog.length);
    expect(modelCatalog.some((m) => m.id.includes('LFM2-1.2B-Tool'))).toBe(false);
    const smallest = (m: (typeof modelCatalog)[number]) => Math.min(...Object.values(m.bytes));
    expect(Math.min(...modelCatalog.map(smallest))).toBe(smallest(modelCatalog[0]));
    expect(recommendedModel().id).toBe('onnx-community/Qwen3-0.6B-ONNX');
  });

  it('names a source for every size, score and format, and ranks by the published scores', () => {
    for (const model of modelCatalog) {
      expect(model.sources?.sizes.length, model.id).toBeGreaterThan(20);
      expect(model.sources?.format.length, model.id).toBeGreaterThan(20);
      if (model.score) expect(model.sources?.score, model.id).toBeTruthy();
      expect(model.license, model.id).toBeTruthy();
    }
    const byStrength = [...modelCatalog].sort((a, b) => (a.strength ?? 0) - (b.strength ?? 0)).map((m) => m.label);
    expect(byStrength[byStrength.length - 1]).toBe('LFM3 1.7B');
    expect(new Set(modelCatalog.map((m) => m.strength)).size).toBe(modelCatalog.length);
  });

  it('uses each family’s own call markers and history style', () => {
    for (const model of modelCatalog) {
      if (model.family?.startsWith('lfm')) {
        expect(model.toolCallEnd, model.id).toBe('<|tool_call_end|>');
        expect(model.historyStyle, model.id).toBe('pythonic');
      } else {
        expect(model.toolCallEnd, model.id).toBe('</tool_call>');
        expect(model.historyStyle, model.id).toBe('structured');
        // Qwen3 and Qwen3.5 think unless told not to: one step must be one call, not a page of reasoning.
        expect(model.templateOptions, model.id).toEqual({ enable_thinking: false });
      }
    }
  });

  it('runs every model somewhere: all but LFM3 on every device, LFM3 only on WebGPU with shader-f16', async () => {
    for (const model of modelCatalog) {
      expect(await chooseDevice({ gpu: gpu(['shader-f16']) }, model), model.id).toMatchObject({ device: 'webgpu' });
      if (model.family === 'lfm3') {
        await expect(chooseDevice({ gpu: gpu([]) }, model)).rejects.toThrow('shader-f16');
        await expect(chooseDevice({}, model)).rejects.toThrow('shader-f16');
        continue;
      }
      expect(await chooseDevice({ gpu: gpu([]) }, model), model.id).toMatchObject({ dtype: 'q4' });
      expect(await chooseDevice({}, model), model.id).toMatchObject({ device: 'wasm', dtype: 'q4' });
    }
  });
});
