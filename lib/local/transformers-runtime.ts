/**
 * The slice of transformers.js the on-device provider uses, typed the way the provider uses it.
 *
 * transformers.js 4.3 declares many options as whole configs or `any`, tensor data as a union of every typed array,
 * and hides onnxruntime's GPU readback; what it accepts at runtime is narrower and known. The casts that bridge the
 * two are written here, once, so the provider and its parts call typed functions instead.
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  BaseStreamer,
  DynamicCache,
  env,
  InterruptableStoppingCriteria,
  ModelRegistry,
  StoppingCriteria,
  StoppingCriteriaList,
  Tensor,
  TextStreamer,
} from '@huggingface/transformers';
import type { DeviceChoice } from './choose-device';

export { BaseStreamer, DynamicCache, env, InterruptableStoppingCriteria, StoppingCriteria, StoppingCriteriaList, type Tensor };

/** The slice of the Cache API the provider keeps model files in. */
export interface ModelFileCache {
  match: (key: string) => Promise<Response | undefined>;
  put: (key: string, response: Response) => Promise<void>;
  delete: (key: string) => Promise<boolean>;
}

export type Tokenizer = Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;
export type CausalLM = Awaited<ReturnType<typeof AutoModelForCausalLM.from_pretrained>>;

/** What transformers.js reports while it loads a file (only the fields the provider reads). */
export type LoadProgress = { status?: string; file?: string };

/** The registry's options for a text model's files: which revision, dtype and device pick them. */
export interface ModelFileOptions {
  revision: string;
  dtype: DeviceChoice['dtype'];
  device: DeviceChoice['device'];
  /** Text models have no processor: false keeps the registry from asking the host for one. */
  include_processor: false;
}

/** A ModelFileCache as transformers.js's `env.customCache` (it calls only match, put and delete). */
export function asCustomCache(cache: ModelFileCache): typeof env.customCache {
  return cache as unknown as typeof env.customCache;
}

/** The files the model needs for these options. */
export function listModelFiles(id: string, options: ModelFileOptions): Promise<string[]> {
  return ModelRegistry.get_files(id, options as never);
}

/** A file's size, from the cache when there, else from a Range probe of the host. */
export async function modelFileSize(id: string, file: string, revision: string): Promise<number | undefined> {
  return ((await ModelRegistry.get_file_metadata(id, file, { revision } as never)) as { size?: number }).size;
}

/** Every file the model needs for these options is in the cache. */
export function isModelCached(id: string, options: ModelFileOptions): Promise<boolean> {
  return ModelRegistry.is_cached(id, { ...options } as never);
}

/** Remove the model's files for these options from the cache. */
export async function clearModelCache(id: string, options: ModelFileOptions): Promise<void> {
  await ModelRegistry.clear_cache(id, { ...options } as never);
}

/** Load (download or read from the cache) the model's tokenizer. */
export function loadTokenizerFiles(
  id: string,
  options: { revision: string; progress_callback?: (info: LoadProgress) => void },
): Promise<Tokenizer> {
  return AutoTokenizer.from_pretrained(id, options as never);
}

/** Load (download or read from the cache) the model's weights onto a device. */
export function loadCausalLM(
  id: string,
  options: {
    revision: string;
    dtype: DeviceChoice['dtype'];
    device: DeviceChoice['device'];
    progress_callback: (info: LoadProgress) => void;
  },
): Promise<CausalLM> {
  return AutoModelForCausalLM.from_pretrained(id, options as never);
}

/** The prompt's tokens: the turns rendered through the tokenizer's chat template, with the tools and template options. */
export function encodeChat(
  tok: Tokenizer,
  messages: Record<string, unknown>[],
  options: { tools?: unknown[]; add_generation_prompt: true; return_dict: true; [option: string]: unknown },
): { input_ids: Tensor; attention_mask: Tensor } {
  return tok.apply_chat_template(messages as never, options as never) as unknown as {
    input_ids: Tensor;
    attention_mask: Tensor;
  };
}

/** The ids of a piece of text on its own (no special tokens added). */
export function encodeText(tok: Tokenizer, text: string): number[] {
  return tok.encode(text, { add_special_tokens: false } as never) as number[];
}

/** A streamer that decodes the new tokens as they come and hands the text on. */
export function createTextStreamer(
  tok: Tokenizer,
  options: {
    skip_prompt: boolean;
    skip_special_tokens: boolean;
    callback_function: (text: string) => void;
    token_callback_function: () => void;
  },
): TextStreamer {
  return new TextStreamer(tok, options as never);
}

/** What a greedy generation from a prompt (and maybe a cache over its start) is asked. */
interface GenerateOptions {
  input_ids: Tensor;
  attention_mask: Tensor;
  max_new_tokens: number;
  do_sample: boolean;
  streamer: BaseStreamer;
  stopping_criteria: StoppingCriteriaList;
  past_key_values: DynamicCache | undefined;
  return_dict_in_generate: true;
}

/** Generate, returning the whole sequence (prompt and reply) and the KV cache it leaves. */
export async function generateWithCache(
  model: CausalLM,
  options: GenerateOptions,
): Promise<{ sequences: Tensor; past_key_values: DynamicCache }> {
  return (await model.generate(options as never)) as unknown as { sequences: Tensor; past_key_values: DynamicCache };
}

/** A token tensor's ids (transformers.js keeps them as int64). */
export function tokenIds(tensor: Tensor): bigint[] {
  return Array.from(tensor.data as BigInt64Array);
}

/** The model's own context length, when its config states one. */
export function maxPositions(model: CausalLM | undefined): number | undefined {
  return (model?.config as { max_position_embeddings?: number } | undefined)?.max_position_embeddings;
}

/** The end-of-sequence id or ids, from the generation config or else the model config. */
export function eosTokenId(model: CausalLM): number | number[] | null | undefined {
  return model.generation_config?.eos_token_id ?? (model.config as { eos_token_id?: number | number[] }).eos_token_id;
}

/** A cache's tensors by input name (`past_key_values.<layer>.key`, …): a DynamicCache is that record. */
export function cacheTensors(cache: DynamicCache): Record<string, Tensor> {
  return cache as unknown as Record<string, Tensor>;
}

/** A copy in CPU memory of a tensor held on the GPU. */
export async function readBackTensor(t: Tensor): Promise<Tensor> {
  // onnxruntime's Tensor.getData() downloads a GPU tensor's contents.
  const ort = (t as unknown as { ort_tensor: { getData: () => Promise<Tensor['data']> } }).ort_tensor;
  return new Tensor(t.type as never, (await ort.getData()) as never, t.dims);
}
