import type { CallFormat } from '../agent/local-provider';

/** Weight formats the provider may ask for, best first where the device allows (q4f16 needs WebGPU's shader-f16). */
export type LocalDtype = 'q4f16' | 'q4' | 'fp32';

/** One on-device model: where it lives, what it costs to download, and how to talk to it. */
export interface LocalModelSpec {
  /** Repository id on the model host (huggingface.co layout), also the ModelChoice id. */
  id: string;
  /** Short name for the picker. */
  label: string;
  /** One sentence on when to pick it. */
  brief: string;
  /** Git revision on the host. */
  revision?: string;
  /**
   * Download size in bytes of each weight format the repository has (model files plus tokenizer and configs).
   * The keys are the formats the provider can choose from.
   */
  bytes: Partial<Record<LocalDtype, number>>;
  /** How earlier calls go back into history. */
  callFormat: CallFormat;
  /** The model's template has no tools: list them in the prompt text. */
  toolsInline: boolean;
  /** Text that ends one tool call; generation stops right after it (one call per step). */
  toolCallEnd?: string;
  /** Context we let the prompt and reply use, in tokens (often below the model's maximum, to bound memory). */
  contextTokens: number;
  /** Extra variables for the chat template (e.g. Qwen3's `enable_thinking`). */
  templateOptions?: Record<string, unknown>;
  /** The adapter's default. */
  recommended?: boolean;
  /** What hardware it wants, for the README and the picker. */
  hardware: string;
}

const MB = 1024 * 1024;

/**
 * The models the local adapter offers. Sizes: q4f16 as measured on huggingface.co (FIELD-NOTES); q4 estimated at
 * 1.6× q4f16 (the ratio of onnx-community's Qwen2.5-0.5B files, 777 MB vs 478 MB) until measured — the provider
 * reports the exact size from the host's headers while it downloads.
 */
export const modelCatalog: readonly LocalModelSpec[] = [
  {
    id: 'onnx-community/Qwen3-0.6B-ONNX',
    label: 'Qwen3 0.6B',
    brief: 'Small and quick: good for one or two tool calls per request.',
    bytes: { q4f16: 570 * MB, q4: 912 * MB },
    callFormat: 'template',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    recommended: true,
    hardware: 'WebGPU with 1 GB free GPU memory; runs on the CPU (WASM) too, slowly.',
  },
  {
    id: 'onnx-community/LFM2-1.2B-Tool-ONNX',
    label: 'LFM2 1.2B Tool',
    brief: 'Trained for tool calling: more precise calls, a larger download.',
    bytes: { q4f16: 868 * MB, q4: 1389 * MB },
    // LFM2's template renders tools, but earlier calls as Python-style text; plain text keeps history faithful.
    callFormat: 'text',
    toolsInline: false,
    toolCallEnd: '<|tool_call_end|>',
    contextTokens: 8192,
    hardware: 'WebGPU with 1.5 GB free GPU memory; CPU (WASM) works but is slow.',
  },
  {
    id: 'onnx-community/Qwen3-1.7B-ONNX',
    label: 'Qwen3 1.7B',
    brief: 'Plans longer tasks better; needs a capable GPU.',
    bytes: { q4f16: 1434 * MB, q4: 2294 * MB },
    callFormat: 'template',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    hardware: 'WebGPU with 2 GB free GPU memory (shader-f16 recommended); too slow on the CPU.',
  },
];

/** The catalog's recommended model. */
export function recommendedModel(catalog: readonly LocalModelSpec[] = modelCatalog): LocalModelSpec {
  return catalog.find((m) => m.recommended) ?? catalog[0];
}
