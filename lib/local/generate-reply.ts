import { FirstTokenStreamer } from './first-token-streamer';
import { cacheBytes, type KvPrefixCache } from './create-kv-prefix-cache';
import { StopAfterSequences } from './stop-after-sequences';
import {
  type CausalLM,
  createTextStreamer,
  type DynamicCache,
  encodeText,
  generateWithCache,
  InterruptableStoppingCriteria,
  StoppingCriteriaList,
  type Tensor,
  type Tokenizer,
  tokenIds,
} from './transformers-runtime';

/** Figures about the last generation, for the benchmark and for tests of the KV cache. */
export interface GenerationStats {
  promptTokens: number;
  /** Prompt tokens served from the KV cache of the previous generation. */
  reusedTokens: number;
  newTokens: number;
  /** From the call to the first new token. */
  firstTokenMs: number;
  totalMs: number;
  /** Bytes the KV cache left by this generation holds (its tensors' shapes × element size, on GPU or CPU). */
  kvBytes?: number;
}

interface GenerateReplyInputs {
  model: CausalLM;
  tokenizer: Tokenizer;
  /** The prompt, rendered through the chat template. */
  prompt: { input_ids: Tensor; attention_mask: Tensor };
  /** The cache the previous generation left: taken when it fits the prompt, replaced by this one's. */
  kv: KvPrefixCache;
  /** The model's tool-call end marker: generation stops right after it. */
  stopAfter?: string;
  maxNewTokens: number;
  /** Stop: generation ends within one token (the model yields before each forward pass). */
  signal: AbortSignal;
  /** The reply's text as it streams (special tokens kept). Decoding costs time: only a listener pays for it. */
  onText?: (delta: string) => void;
  /** When the request began (performance.now()), for the figures. */
  started: number;
}

/**
 * One greedy generation from a prompt: it starts from the kept KV cache when the prompt extends it, stops at the
 * model's end of sequence, at the tool-call end marker, at the token budget or when the signal aborts, and keeps
 * the cache it leaves for the next generation. It does not throw on abort: what was generated until then comes back.
 *
 * @returns The new tokens (the end-of-sequence tokens included), and the figures of this generation.
 */
export async function generateReply(inputs: GenerateReplyInputs): Promise<{ generated: bigint[]; stats: GenerationStats }> {
  const { tokenizer: tok, signal, started } = inputs;
  const promptIds = tokenIds(inputs.prompt.input_ids);
  const { past, reusedTokens } = await inputs.kv.take(promptIds);

  const interrupt = new InterruptableStoppingCriteria();
  const onAbort = () => interrupt.interrupt();
  signal.addEventListener('abort', onAbort, { once: true });
  const criteria = new StoppingCriteriaList();
  criteria.push(interrupt);
  if (inputs.stopAfter) {
    const marker = encodeText(tok, inputs.stopAfter);
    criteria.push(new StopAfterSequences([marker], promptIds.length));
  }
  let firstTokenMs = 0;
  const markFirstToken = () => {
    if (!firstTokenMs) firstTokenMs = performance.now() - started;
  };
  // Decoding every token costs time; only a listener for text pays for it.
  const streamer = inputs.onText
    ? createTextStreamer(tok, {
        skip_prompt: true,
        skip_special_tokens: false,
        callback_function: inputs.onText,
        token_callback_function: markFirstToken,
      })
    : new FirstTokenStreamer(markFirstToken);

  let output: { sequences: Tensor; past_key_values: DynamicCache };
  try {
    output = await generateWithCache(inputs.model, {
      ...inputs.prompt,
      max_new_tokens: inputs.maxNewTokens,
      do_sample: false,
      streamer,
      stopping_criteria: criteria,
      past_key_values: past,
      return_dict_in_generate: true,
    });
  } catch (error) {
    await past?.dispose();
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  const sequence = tokenIds(output.sequences);
  // The last token was never fed to the model: the cache holds everything before it.
  inputs.kv.keep(sequence.slice(0, -1), output.past_key_values);
  const generated = sequence.slice(promptIds.length);
  return {
    generated,
    stats: {
      promptTokens: promptIds.length,
      reusedTokens,
      newTokens: generated.length,
      firstTokenMs,
      totalMs: performance.now() - started,
      kvBytes: cacheBytes(output.past_key_values),
    },
  };
}
