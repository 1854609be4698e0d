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
  /**
   * How earlier calls are written into the model's own template: 'structured' passes `tool_calls` to templates that
   * render them (Qwen3, Qwen3.5); 'pythonic' writes them into the assistant text as the model itself writes them
   * (LFM2/2.5/3 templates render only the content: `<|tool_call_start|>[f(a="x")]<|tool_call_end|>`).
   */
  historyStyle?: 'structured' | 'pythonic';
  // The evidence below is required of every catalog entry by its test; a test model may leave it out.
  /** The model family, which fixes the call format (see the README's model table). */
  family?: 'qwen3' | 'qwen3.5' | 'lfm2' | 'lfm3';
  /** The weights' license, as the model card states it. */
  license?: string;
  /** A published tool-calling score, with who published it. */
  score?: { benchmark: string; value: number; reportedBy: string };
  /** Where each fact above comes from, and how firm it is (checked page, maker's figure, estimate). */
  sources?: { sizes: string; score?: string; format: string };
  /** Ordering for recommendations: higher is the stronger tool caller (by the scores above, where they exist). */
  strength?: number;
}

const MB = 1000 * 1000;
const GB = 1000 * MB;

/**
 * The models the local adapter offers, smallest first. Every size, score and format fact names its source in
 * `sources`; "estimate" marks a figure nobody published (the provider reads the exact size from the host's headers
 * while it downloads). Sizes are the files transformers.js fetches for one dtype: `onnx/<session>_<dtype>.onnx` with
 * its `_data` files, plus tokenizer and configs (a few MB). Decimal units (1 GB = 10^9 bytes), as huggingface.co shows.
 */
export const modelCatalog: readonly LocalModelSpec[] = [
  {
    id: 'onnx-community/Qwen3-0.6B-ONNX',
    label: 'Qwen3 0.6B',
    brief: 'The smallest: quick, good for one or two tool calls per request.',
    bytes: { q4f16: 570 * MB, q4: 912 * MB },
    callFormat: 'template',
    historyStyle: 'structured',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    recommended: true,
    hardware: 'WebGPU with 1 GB free GPU memory; runs on the CPU (WASM) too, slowly.',
    family: 'qwen3',
    license: 'Apache-2.0',
    score: { benchmark: 'BFCL V4 overall', value: 23.9, reportedBy: 'published figure quoted in issue 13' },
    sources: {
      sizes: 'q4f16 measured on huggingface.co (docs/platform-notes.md, ≈0.56 GB); q4 estimate (1.6 × q4f16).',
      score: 'Issue 13 (BFCL V4 leaderboard figure); not re-checked here.',
      format: 'Qwen3 template: Hermes <tool_call>{json}</tool_call>; results as <tool_response> in a user turn.',
    },
    strength: 1,
  },
  {
    id: 'onnx-community/Qwen3.5-0.8B-ONNX',
    label: 'Qwen3.5 0.8B',
    brief: 'Small, newer than Qwen3 0.6B, slightly better at calls.',
    bytes: { q4f16: 850 * MB, q4: 1100 * MB },
    callFormat: 'template',
    historyStyle: 'structured',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    hardware: 'WebGPU with 1.5 GB free GPU memory; runs on the CPU (WASM), slowly.',
    family: 'qwen3.5',
    license: 'Apache-2.0',
    score: { benchmark: 'BFCL V4 overall', value: 25.3, reportedBy: 'published figure quoted in issue 13' },
    sources: {
      sizes:
        'Estimate: the file listing of onnx-community/Qwen3.5-0.8B-ONNX was not in the reference index. Layout ' +
        '(embed_tokens_<dtype> + decoder_model_merged_<dtype>, vision_encoder not fetched) checked on the listing of ' +
        'its sibling onnx-community/Qwen3.5-2B-ONNX and in transformers.js 4.3.2 (text-only sessions).',
      score: 'Issue 13; not re-checked here.',
      format:
        'Qwen3.5 template (third-party copies checked): tools as JSON in <tools>, calls as ' +
        '<tool_call><function=name><parameter=p>value</parameter></function></tool_call>.',
    },
    strength: 2,
  },
  {
    id: 'LiquidAI/LFM2.5-1.2B-Instruct-ONNX',
    label: 'LFM2.5 1.2B',
    brief: 'Liquid’s on-device model: fast on the CPU and GPU, good at tool calls.',
    bytes: { q4: 1200 * MB },
    callFormat: 'template',
    historyStyle: 'pythonic',
    toolsInline: false,
    toolCallEnd: '<|tool_call_end|>',
    contextTokens: 8192,
    hardware: 'WebGPU with 1.5 GB free GPU memory; the CPU (WASM) works too.',
    family: 'lfm2',
    license: 'LFM Open License v1.0 (lfm1.0)',
    score: { benchmark: 'BFCL v3', value: 49, reportedBy: 'Liquid AI (maker), quoted in issue 13' },
    sources: {
      sizes:
        'Maker-reported: the repository card lists Q4 ≈1.2 GB, FP16 ≈2.4 GB, Q8 ≈1.7 GB (server only); no q4f16 on ' +
        'main, so shader-f16 GPUs use q4 too.',
      score: 'Maker-reported (≈49 on BFCL v3, an older version than the others’ V4: not comparable).',
      format: 'LFM2 template: Python-style calls between <|tool_call_start|> and <|tool_call_end|>; tool role results.',
    },
    strength: 4,
  },
  {
    id: 'onnx-community/Qwen3-1.7B-ONNX',
    label: 'Qwen3 1.7B',
    brief: 'Plans longer tasks better; needs a capable GPU.',
    bytes: { q4f16: 1434 * MB, q4: 2294 * MB },
    callFormat: 'template',
    historyStyle: 'structured',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    hardware: 'WebGPU with 2 GB free GPU memory (shader-f16 recommended); too slow on the CPU.',
    family: 'qwen3',
    license: 'Apache-2.0',
    score: { benchmark: 'BFCL V4 overall', value: 28.4, reportedBy: 'published figure quoted in issue 13' },
    sources: {
      sizes: 'q4f16 measured on huggingface.co (docs/platform-notes.md, ≈1.4 GB); q4 estimate (1.6 × q4f16).',
      score: 'Issue 13; not re-checked here.',
      format: 'Qwen3 template, as Qwen3 0.6B.',
    },
    strength: 3,
  },
  {
    id: 'LiquidAI/LFM3-1.7B-ONNX',
    label: 'LFM3 1.7B',
    brief: 'The strongest tool caller here; needs WebGPU with shader-f16.',
    // The maker's card: "On WebGPU, use model_q4f16"; its q4 (1.63 GB) is for native CPU runtimes, and the default
    // onnxruntime-web (WASM) build cannot run these graphs. So: q4f16 only, WebGPU with shader-f16 only.
    bytes: { q4f16: 1.38 * GB },
    callFormat: 'template',
    historyStyle: 'pythonic',
    toolsInline: false,
    toolCallEnd: '<|tool_call_end|>',
    contextTokens: 8192,
    hardware: 'WebGPU with shader-f16 and 2 GB free GPU memory; does not run on the CPU (WASM).',
    family: 'lfm3',
    license: 'LFM Open License v1.0 (lfm1.0)',
    score: { benchmark: 'BFCL V4 overall', value: 71.4, reportedBy: 'Liquid AI (maker), quoted in issue 13' },
    sources: {
      sizes:
        'Maker-reported on huggingface.co/LiquidAI/LFM3-1.7B-ONNX: q4f16 1.38 GB (also q4 1.63, q4f32 2.24, q8 2.27, ' +
        'q8f16 2.03, fp16 3.59, fp32 7.18 GB).',
      score: 'Maker-reported; not re-checked here.',
      format:
        'LFM family template (Python-style calls between tool-call markers); the maker asks for prefill in chunks of ' +
        'at most 256 tokens on WebGPU, which transformers.js 4.3.2 does not do: untested on real hardware here.',
    },
    strength: 6,
  },
  {
    id: 'onnx-community/Qwen3.5-2B-ONNX',
    label: 'Qwen3.5 2B',
    brief: 'Strong at tool calls, a large download; needs a capable GPU.',
    bytes: { q4f16: 1.9 * GB, q4: 2.5 * GB },
    callFormat: 'template',
    historyStyle: 'structured',
    toolsInline: false,
    toolCallEnd: '</tool_call>',
    contextTokens: 8192,
    templateOptions: { enable_thinking: false },
    hardware: 'WebGPU with 3 GB free GPU memory (shader-f16 recommended); too slow on the CPU.',
    family: 'qwen3.5',
    license: 'Apache-2.0',
    score: { benchmark: 'BFCL V4 overall', value: 43.6, reportedBy: 'published figure quoted in issue 13' },
    sources: {
      sizes:
        'Estimate: the repository’s files (embed_tokens_q4f16/q4 + decoder_model_merged_q4f16/q4 with _data, ' +
        'chat_template.jinja) are checked on a duplicate’s commit listing, their sizes were not in the index.',
      score: 'Issue 13; not re-checked here.',
      format: 'Qwen3.5 template, as Qwen3.5 0.8B.',
    },
    strength: 5,
  },
];

// Retired: LFM2-1.2B-Tool (onnx-community/LFM2-1.2B-Tool-ONNX, q4f16 868 MB). LFM2.5-1.2B-Instruct has the same
// architecture, size and call format, with 28T instead of 10T training tokens plus reinforcement learning (maker's
// card), and LFM3-1.7B covers the strong end. A saved choice of it is an unknown id: the adapter picks the
// recommended model instead.

/** The catalog's recommended model. */
export function recommendedModel(catalog: readonly LocalModelSpec[] = modelCatalog): LocalModelSpec {
  return catalog.find((m) => m.recommended) ?? catalog[0];
}
