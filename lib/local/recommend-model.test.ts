import { describe, expect, it } from 'vitest';
import { modelCatalog } from './model-catalog';
import { PROMPT_API_CHOICE, recommendModel } from './recommend-model';

const label = (id: string) => modelCatalog.find((m) => m.id === id)?.label ?? id;

describe('recommendModel', () => {
  it('gives WebGPU with shader-f16 and enough memory the strongest model that fits', () => {
    const r = recommendModel(modelCatalog, { webgpu: true, shaderF16: true, memoryGb: 8, promptApi: true });
    expect(label(r.id)).toBe('LFM3 1.7B');
    expect(r.reason).toContain('shader-f16');
    // Less memory: the strongest that still fits, down to the smallest.
    expect(label(recommendModel(modelCatalog, { webgpu: true, shaderF16: true, memoryGb: 2, promptApi: false }).id)).toBe('Qwen3 0.6B');
  });

  it('gives WebGPU without shader-f16 a q4 model, never the f16-only LFM3', () => {
    const r = recommendModel(modelCatalog, { webgpu: true, shaderF16: false, memoryGb: 8, promptApi: false });
    const model = modelCatalog.find((m) => m.id === r.id);
    expect(model?.bytes.q4).toBeDefined();
    expect(label(r.id)).toBe('Qwen3.5 2B');
    expect(r.reason).toContain('q4');
    expect(label(recommendModel(modelCatalog, { webgpu: true, shaderF16: false, memoryGb: 4, promptApi: false }).id)).toBe('LFM2.5 1.2B');
  });

  it('without WebGPU: Chrome’s built-in model where it exists, else the smallest', () => {
    expect(recommendModel(modelCatalog, { webgpu: false, shaderF16: false, promptApi: true }).id).toBe(PROMPT_API_CHOICE);
    const r = recommendModel(modelCatalog, { webgpu: false, shaderF16: false, memoryGb: 16, promptApi: false });
    expect(label(r.id)).toBe('Qwen3 0.6B');
    expect(r.reason).toContain('No WebGPU');
  });
});
