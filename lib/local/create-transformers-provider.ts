import {
  AutoModelForCausalLM,
  AutoTokenizer,
  BaseStreamer,
  DynamicCache as DynamicCacheClass,
  type DynamicCache,
  env,
  InterruptableStoppingCriteria,
  ModelRegistry,
  StoppingCriteria,
  StoppingCriteriaList,
  type Tensor,
  Tensor as TensorClass,
  TextStreamer,
} from '@huggingface/transformers';
import type { ChatTurn, GenerateRequest, LocalProvider } from '../agent/local-provider';
import type { ToolDescriptor } from '../agent/types';
import { type DeviceChoice, type DeviceFacts, chooseDevice } from './choose-device';
import { type LocalModelSpec, recommendedModel } from './model-catalog';

/** The slice of the Cache API the provider keeps model files in. */
export interface ModelFileCache {
  match: (key: string) => Promise<Response | undefined>;
  put: (key: string, response: Response) => Promise<void>;
  delete: (key: string) => Promise<boolean>;
}

/** Everything the provider needs from its context: lib/ reads no globals of its own. */
export interface TransformersProviderOptions {
  /** The model. Default: the catalog's recommended one (Qwen3 0.6B). */
  model?: LocalModelSpec;
  /** What the context offers (GPU, isolation, cores); without it: the CPU backend, one thread. */
  facts?: DeviceFacts;
  /**
   * onnxruntime-web's files shipped with the extension (public/ort/), as URLs. `wasm` alone runs single- or
   * multi-threaded with ORT's bundled loader; `mjs` too makes ORT start its threads from its own file.
   * Unset in Node (onnxruntime-node needs none).
   */
  wasmPaths?: { wasm: string; mjs?: string };
  /** Model host with huggingface.co's layout (a mirror, an offline install). Default https://huggingface.co/. */
  remoteHost?: string;
  /** Path template under the host. Default `{model}/resolve/{revision}/`. */
  remotePathTemplate?: string;
  /** The context's fetch; every download goes through it (so it can be cancelled and counted). */
  fetch?: typeof fetch;
  /** Where model files are kept (the Cache API in browsers). Unset: transformers.js's own default. */
  cache?: ModelFileCache;
  /**
   * Reconnections when a connection drops (each resumes the file where it stopped), counted while no byte
   * arrives in between. Default 3.
   */
  downloadRetries?: number;
  /** Wait before the first reconnection, doubled each time. Default 1000 ms. */
  retryDelayMs?: number;
  /** Unload the model after this long without use, freeing GPU memory. 0 keeps it. Default 5 minutes. */
  idleUnloadMs?: number;
  /** Reply budget when the request sets none. Default 512. */
  maxNewTokens?: number;
  /** Called when the idle timer unloaded the model. */
  onUnload?: () => void;
}

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

/** A LocalProvider over transformers.js, plus what the adapter needs to manage the model. */
export interface TransformersProvider extends LocalProvider {
  readonly model: LocalModelSpec;
  /** The model is in memory. */
  readonly loaded: boolean;
  /** Figures of the last finished generation. */
  readonly lastGeneration: GenerationStats | undefined;
  /** Where and how the model runs on this device (asks the GPU once). */
  device: () => Promise<DeviceChoice>;
  /** Every file the model needs is in the cache: preparing reads, it does not download. */
  isCached: () => Promise<boolean>;
  /** Bytes the model's files take in the cache; undefined unless every file is there. Reads no network. */
  storedBytes: () => Promise<number | undefined>;
  /** Remove the model's files from the cache (and from memory). */
  deleteModel: () => Promise<void>;
  /** Free the model (and its GPU memory) now; the next generate loads it again from the cache. */
  unload: () => Promise<void>;
  /** Token-exact: the templated prompt plus the reply budget within the context. */
  fits: NonNullable<LocalProvider['fits']>;
  /** generate, with the reply's text as it streams (special tokens kept). */
  generate: (req: GenerateRequest & { onText?: (delta: string) => void }) => Promise<string>;
}

type Tokenizer = Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;
type CausalLM = Awaited<ReturnType<typeof AutoModelForCausalLM.from_pretrained>>;
type TemplateTool = { type: 'function'; function: { name: string; description: string; parameters: unknown } };

/** Stops once the generated ids end with one of the marker sequences (the tool-call end marker). */
class StopAfterSequences extends StoppingCriteria {
  constructor(
    private readonly sequences: number[][],
    private readonly promptLength: number,
  ) {
    super();
  }

  // Typed number[][] upstream; generate() passes bigint ids, so compare through Number().
  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map((ids) =>
      this.sequences.some(
        (seq) =>
          seq.length > 0 &&
          ids.length - this.promptLength >= seq.length &&
          seq.every((id, i) => Number(ids[ids.length - seq.length + i]) === id),
      ),
    );
  }
}

/** A download in progress: which URLs are its files, its cancel signal, and its byte counter. */
interface ActiveDownload {
  owns: (url: string) => boolean;
  signal?: AbortSignal;
  onBytes: (url: string, bytes: number) => void;
  /** Reconnections without progress before a download fails. */
  retries: number;
  /** First wait before reconnecting; doubled each time. */
  retryDelayMs: number;
}

/**
 * transformers.js has one global `env.fetch`, while several providers (one per catalog model) share the context:
 * one fetch serves them all and finds the download a request belongs to by its URL.
 */
const activeDownloads = new Set<ActiveDownload>();
let envBaseFetch: (input: string | URL, init?: RequestInit) => Promise<Response> = (input, init) => fetch(input, init);

/** Every transformers.js request: cancellable by its download's signal, and counted for its progress. */
async function envFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  const current = [...activeDownloads].find((d) => d.owns(url));
  const signal = current?.signal
    ? init?.signal
      ? AbortSignal.any([init.signal, current.signal])
      : current.signal
    : (init?.signal ?? undefined);
  const isProbe = new Headers(init?.headers).has('Range');
  let response: Response;
  // Failed attempts without a byte received, shared with the body's reconnections below.
  let stalls = 0;
  for (;;) {
    try {
      response = await envBaseFetch(input, { ...init, signal });
      break;
    } catch (error) {
      // A connection that drops before the answer starts is retried too, from the beginning.
      if (!current || isProbe || signal?.aborted || stalls >= current.retries) throw error;
      await wait(current.retryDelayMs * 2 ** stalls, signal);
      stalls++;
    }
  }
  if (!current || isProbe || response.status !== 200 || !response.body) return response;
  return new Response(resumableBody(url, response, init, signal, current, stalls), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * The body of `first`, counted for progress; when the connection drops mid-file, it reconnects with
 * `Range: bytes=<received>-` (and `If-Range`, so a changed file is not spliced) and carries on, so the bytes already
 * received are not fetched again. After `retries` failed reconnections the error stands (the finished files stay
 * in the cache for the next try).
 */
function resumableBody(
  url: string,
  first: Response,
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
  download: ActiveDownload,
  initialStalls: number,
): ReadableStream<Uint8Array> {
  const length = Number(first.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const validator = first.headers.get('etag') ?? first.headers.get('last-modified');
  let reader = (first.body as ReadableStream<Uint8Array>).getReader();
  let received = 0;

  // Reconnections are counted while no byte arrives between drops; a connection that keeps making progress
  // keeps being resumed.
  let receivedAtLastDrop = 0;
  let stalls = initialStalls;
  const reconnect = async (cause: unknown) => {
    if (received > receivedAtLastDrop) stalls = 0;
    receivedAtLastDrop = received;
    while (stalls < download.retries) {
      await wait(download.retryDelayMs * 2 ** stalls, signal);
      stalls++;
      const headers = new Headers(init?.headers);
      headers.set('Range', `bytes=${received}-`);
      if (validator) headers.set('If-Range', validator);
      let next: Response;
      try {
        next = await envBaseFetch(url, { ...init, headers, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        continue;
      }
      const range = next.headers.get('content-range') ?? '';
      if (next.status === 206 && next.body && range.startsWith(`bytes ${received}-`)) {
        reader = next.body.getReader();
        return;
      }
      await next.body?.cancel();
      // The host does not resume this file (no ranges, or it changed): give up on splicing.
      break;
    }
    throw cause;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
          if (chunk.done && total !== undefined && received < total) {
            throw new Error(`The connection closed after ${received} of ${total} bytes.`);
          }
        } catch (error) {
          if (signal?.aborted || total === undefined) throw error;
          await reconnect(error);
          continue;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        received += chunk.value.byteLength;
        download.onBytes(url, chunk.value.byteLength);
        controller.enqueue(chunk.value);
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Notes when the first new token arrives (the first put() is the prompt). */
class FirstTokenStreamer extends BaseStreamer {
  private prompt = true;

  constructor(private readonly onFirst: () => void) {
    super();
  }

  override put(): void {
    if (this.prompt) this.prompt = false;
    else this.onFirst();
  }

  override end(): void {}
}

/**
 * Let queued tasks run (a Stop message, a step timeout): onnxruntime-web runs WASM inference synchronously inside
 * its promise, so a whole generation can otherwise finish without the event loop ever seeing the abort. A
 * MessageChannel round-trip is a task without setTimeout's 4 ms clamp.
 */
function yieldToEventLoop(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Longest stretch of inference between two turns of the event loop: the most a Stop can wait, plus one token. */
const YIELD_EVERY_MS = 4;

/**
 * Make forward passes of `model` start with a turn of the event loop whenever YIELD_EVERY_MS passed since the last
 * one, so aborts land within one token on real models (tens of ms per token) without taxing tiny, fast ones.
 */
function yieldBeforeEachForward(model: CausalLM): void {
  const forward = model.forward.bind(model);
  let last = performance.now();
  Object.defineProperty(model, 'forward', {
    configurable: true,
    value: async (inputs: unknown) => {
      if (performance.now() - last >= YIELD_EVERY_MS) {
        await yieldToEventLoop();
        last = performance.now();
      }
      return forward(inputs as never);
    },
  });
}

/**
 * A cache can be cut back to a prefix when it holds only attention keys and values ([batch, heads, seq, dim]):
 * recurrent or convolution states (LFM2/3, Qwen3.5) summarise the whole sequence and cannot be. GPU tensors count
 * too: they are read back (much cheaper than prefilling the prefix again: a readback moves bytes, a prefill runs
 * every layer over every token).
 */
function canTruncate(cache: DynamicCache): boolean {
  return Object.entries(cache as unknown as Record<string, Tensor>).every(
    ([name, t]) =>
      name.startsWith('past_key_values.') &&
      (t.location === 'cpu' || t.location === undefined || t.location === 'gpu-buffer') &&
      t.dims.length === 4,
  );
}

/** Bytes a cache's tensors hold, from their shapes (a GPU tensor's data cannot be read without copying it). */
export function cacheBytes(cache: DynamicCache): number {
  const width: Record<string, number> = { float32: 4, float16: 2, bfloat16: 2, int8: 1, uint8: 1 };
  return Object.values(cache as unknown as Record<string, Tensor>).reduce(
    (sum, t) => sum + (t?.dims ? t.dims.reduce((a, b) => a * b, 1) * (width[t.type] ?? 4) : 0),
    0,
  );
}

/** A new cache (in CPU memory; the session uploads it) holding the first `length` positions of `cache`. */
async function truncateCache(cache: DynamicCache, length: number): Promise<DynamicCache> {
  const entries = await Promise.all(
    Object.entries(cache as unknown as Record<string, Tensor>).map(async ([name, t]) => {
      let cpu = t;
      if (t.location === 'gpu-buffer') {
        // onnxruntime's Tensor.getData() downloads a GPU tensor's contents.
        const ort = (t as unknown as { ort_tensor: { getData: () => Promise<Tensor['data']> } }).ort_tensor;
        cpu = new TensorClass(t.type as never, (await ort.getData()) as never, t.dims);
      }
      return [name, cpu.slice(null, null, [0, length], null)] as const;
    }),
  );
  return new DynamicCacheClass(Object.fromEntries(entries));
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The generation was stopped.', 'AbortError');
}

function toTemplateTool(tool: ToolDescriptor): TemplateTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/**
 * The turns as the model's template wants them. 'structured' templates (Qwen3, Qwen3.5) render `tool_calls`
 * themselves. 'pythonic' templates (LFM) render only the content, so earlier calls are written into it as the model
 * writes them, `<|tool_call_start|>[f(a="x")]<|tool_call_end|>`: the model sees its own calls, and the prompt extends
 * the cached tokens of the reply that made them.
 */
export function toTemplateMessages(
  turns: readonly ChatTurn[],
  style: LocalModelSpec['historyStyle'] = 'structured',
): Record<string, unknown>[] {
  return turns.map((t) => {
    if (style !== 'pythonic' || !t.tool_calls?.length) return { ...t };
    const { tool_calls: calls, ...rest } = t;
    const written = calls.map((c) => pythonCall(c.function.name, c.function.arguments)).join(', ');
    return { ...rest, content: `${t.content}<|tool_call_start|>[${written}]<|tool_call_end|>` };
  });
}

/** `name(key="value", n=3)`: a call as LFM models write it (Python literals; strings with JSON's escapes). */
export function pythonCall(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.entries(args)
    .map(([key, value]) => `${key}=${pythonLiteral(value)}`)
    .join(', ')})`;
}

function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

/**
 * Create a LocalProvider over transformers.js (design: FIELD-NOTES, "transformers.js 4.3 in an MV3 extension").
 * Prompts go through the tokenizer's chat template with the tools; `generate` keeps special tokens, stops at the
 * model's tool-call end marker, and stops within one token when the signal aborts. The KV cache of one generation is
 * reused by the next only when the new prompt extends the cached tokens exactly.
 *
 * transformers.js keeps its settings in one global `env`; the provider sets what it owns (host, fetch, cache, ORT
 * paths) before each load, so run one engine per context (the Worker) with one set of options.
 */
export function createTransformersProvider(options: TransformersProviderOptions = {}): TransformersProvider {
  const spec = options.model ?? recommendedModel();
  const idleUnloadMs = options.idleUnloadMs ?? 5 * 60_000;
  const defaultMaxNewTokens = options.maxNewTokens ?? 512;
  const revision = spec.revision ?? 'main';

  let devicePromise: Promise<DeviceChoice> | undefined;
  let tokenizer: Tokenizer | undefined;
  let tokenizerPromise: Promise<Tokenizer> | undefined;
  let model: CausalLM | undefined;
  let loading: Promise<void> | undefined;
  let kv: { tokens: bigint[]; past: DynamicCache } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let lastGeneration: GenerationStats | undefined;

  const device = () => {
    devicePromise ??= chooseDevice(options.facts ?? {}, spec);
    return devicePromise;
  };

  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const configureEnv = (choice: DeviceChoice) => {
    env.allowLocalModels = false;
    env.allowRemoteModels = true;
    env.remoteHost = options.remoteHost ?? 'https://huggingface.co/';
    env.remotePathTemplate = options.remotePathTemplate ?? '{model}/resolve/{revision}/';
    envBaseFetch = baseFetch;
    env.fetch = envFetch;
    if (options.cache) {
      env.useCustomCache = true;
      env.customCache = options.cache as unknown as typeof env.customCache;
      env.useBrowserCache = false;
      env.useFSCache = false;
    }
    const wasm = env.backends.onnx.wasm;
    if (wasm) {
      if (options.wasmPaths) {
        wasm.wasmPaths = options.wasmPaths.mjs ? { ...options.wasmPaths } : { wasm: options.wasmPaths.wasm };
        // With `mjs` set, transformers.js would re-import ORT's loader from a blob: URL, which extension pages refuse.
        if (options.wasmPaths.mjs) env.useWasmCache = false;
      }
      wasm.numThreads = choice.numThreads;
    }
  };

  /** Run after everything queued before: ORT sessions are not re-entrant, and unloading waits for a generation. */
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };

  const touch = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (idleUnloadMs > 0 && model) {
      idleTimer = setTimeout(() => {
        idleTimer = undefined;
        // Only between generations: a running one keeps the model.
        void exclusive(async () => {
          if (!model) return;
          await unloadNow();
          options.onUnload?.();
        });
      }, idleUnloadMs);
    }
  };

  const dropKv = async () => {
    const old = kv;
    kv = undefined;
    await old?.past.dispose();
  };

  const unloadNow = async () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    await dropKv();
    const m = model;
    model = undefined;
    tokenizer = undefined;
    tokenizerPromise = undefined;
    loading = undefined;
    await m?.dispose();
  };

  // Text models have no processor. Left at its default, the registry asks the host whether a
  // preprocessor_config.json exists before answering "cached?" or "delete", so a downloaded model looked missing
  // (and could not be deleted) whenever the host was unreachable.
  const fileOptions = async () => {
    const choice = await device();
    return { revision, dtype: choice.dtype, device: choice.device, include_processor: false };
  };

  const modelFiles = async (): Promise<string[]> => ModelRegistry.get_files(spec.id, (await fileOptions()) as never);

  const loadTokenizer = async (progress_callback?: (info: unknown) => void) => {
    if (tokenizer) return tokenizer;
    tokenizerPromise ??= AutoTokenizer.from_pretrained(spec.id, { revision, progress_callback } as never).catch(
      (error: unknown) => {
        tokenizerPromise = undefined;
        throw error;
      },
    );
    tokenizer = await tokenizerPromise;
    return tokenizer;
  };

  const load = async (onProgress: (progress: number) => void, signal?: AbortSignal) => {
    const choice = await device();
    configureEnv(choice);
    signal?.throwIfAborted();

    // Sizes first (from the cache when there, else a Range probe), so progress is one bar over every file.
    const files = await modelFiles();
    const sizes = new Map<string, { total: number; loaded: number }>();
    await Promise.all(
      files.map(async (file) => {
        const meta = (await ModelRegistry.get_file_metadata(spec.id, file, { revision } as never)) as {
          size?: number;
        };
        sizes.set(file, { total: meta.size ?? 0, loaded: 0 });
      }),
    );
    let reported = 0;
    const report = () => {
      let total = 0;
      let loaded = 0;
      for (const s of sizes.values()) {
        total += s.total;
        loaded += Math.min(s.loaded, s.total);
      }
      // Never backwards, and 1 only once the model is in memory.
      const value = Math.min(0.99, total > 0 ? loaded / total : 0);
      if (value > reported) {
        reported = value;
        onProgress(value);
      }
    };
    const fileOf = (url: string) => files.find((f) => url.endsWith(`/${f}`));
    const download: ActiveDownload = {
      owns: (url) => url.includes(`/${spec.id}/`),
      signal,
      retries: options.downloadRetries ?? 3,
      retryDelayMs: options.retryDelayMs ?? 1000,
      onBytes: (url, bytes) => {
        const file = fileOf(url);
        const entry = file ? sizes.get(file) : undefined;
        if (entry) {
          entry.loaded += bytes;
          report();
        }
      },
    };
    const progress_callback = (info: unknown) => {
      const { status, file } = info as { status?: string; file?: string };
      const entry = file ? sizes.get(file) : undefined;
      if (status === 'done' && entry) {
        entry.loaded = entry.total;
        report();
      }
    };
    activeDownloads.add(download);
    try {
      onProgress(0);
      const tok = await loadTokenizer(progress_callback);
      signal?.throwIfAborted();
      const m = await AutoModelForCausalLM.from_pretrained(spec.id, {
        revision,
        dtype: choice.dtype,
        device: choice.device,
        progress_callback,
      } as never);
      if (signal?.aborted) {
        await m.dispose();
        throw abortError(signal);
      }
      yieldBeforeEachForward(m);
      tokenizer = tok;
      model = m;
      onProgress(1);
    } catch (error) {
      throw signal?.aborted ? abortError(signal) : error;
    } finally {
      activeDownloads.delete(download);
    }
  };

  const ensureLoaded = (onProgress: (progress: number) => void = () => {}, signal?: AbortSignal) => {
    if (model) return Promise.resolve();
    loading ??= load(onProgress, signal).finally(() => {
      loading = undefined;
    });
    return loading;
  };

  const encodePrompt = (tok: Tokenizer, req: Omit<GenerateRequest, 'signal'>) =>
    tok.apply_chat_template(toTemplateMessages(req.messages, spec.historyStyle) as never, {
      tools: req.tools?.map(toTemplateTool),
      add_generation_prompt: true,
      return_dict: true,
      ...spec.templateOptions,
    } as never) as unknown as { input_ids: Tensor; attention_mask: Tensor };

  const contextLimit = () => {
    const max = (model?.config as { max_position_embeddings?: number } | undefined)?.max_position_embeddings;
    return max ? Math.min(max, spec.contextTokens) : spec.contextTokens;
  };

  const generateNow = async (req: GenerateRequest & { onText?: (delta: string) => void }): Promise<string> => {
    const { signal } = req;
    signal.throwIfAborted();
    await ensureLoaded(() => {}, signal);
    const tok = tokenizer as Tokenizer;
    const m = model as CausalLM;
    const started = performance.now();
    const inputs = encodePrompt(tok, req);
    const promptIds = Array.from(inputs.input_ids.data as BigInt64Array);

    // Reuse only cached tokens the new prompt extends exactly: any other cache would condition the model on tokens
    // it is not shown. At least one prompt token must remain to be fed.
    let past: DynamicCache | undefined;
    let reusedTokens = 0;
    if (kv) {
      let common = 0;
      const limit = Math.min(kv.tokens.length, promptIds.length - 1);
      while (common < limit && kv.tokens[common] === promptIds[common]) common++;
      if (common === kv.tokens.length) {
        past = kv.past;
        reusedTokens = common;
        kv = undefined;
      } else if (common > 0 && canTruncate(kv.past)) {
        // The prompt shares only a prefix (a template re-rendered an earlier turn differently): keep that part.
        past = await truncateCache(kv.past, common);
        reusedTokens = common;
        await dropKv();
      } else {
        await dropKv();
      }
    }

    const interrupt = new InterruptableStoppingCriteria();
    const onAbort = () => interrupt.interrupt();
    signal.addEventListener('abort', onAbort, { once: true });
    const criteria = new StoppingCriteriaList();
    criteria.push(interrupt);
    if (spec.toolCallEnd) {
      const marker = tok.encode(spec.toolCallEnd, { add_special_tokens: false } as never) as number[];
      criteria.push(new StopAfterSequences([marker], promptIds.length));
    }
    let firstTokenMs = 0;
    const markFirstToken = () => {
      if (!firstTokenMs) firstTokenMs = performance.now() - started;
    };
    // Decoding every token costs time; only a listener for text pays for it.
    const streamer = req.onText
      ? new TextStreamer(tok, {
          skip_prompt: true,
          skip_special_tokens: false,
          callback_function: req.onText,
          token_callback_function: markFirstToken,
        } as never)
      : new FirstTokenStreamer(markFirstToken);

    let output: { sequences: Tensor; past_key_values: DynamicCache };
    try {
      output = (await m.generate({
        ...inputs,
        max_new_tokens: req.maxNewTokens ?? defaultMaxNewTokens,
        do_sample: false,
        streamer,
        stopping_criteria: criteria,
        past_key_values: past,
        return_dict_in_generate: true,
      } as never)) as unknown as typeof output;
    } catch (error) {
      await past?.dispose();
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    const sequence = Array.from(output.sequences.data as BigInt64Array);
    // The last token was never fed to the model: the cache holds everything before it.
    kv = { tokens: sequence.slice(0, -1), past: output.past_key_values };
    const generated = sequence.slice(promptIds.length);
    lastGeneration = {
      promptTokens: promptIds.length,
      reusedTokens,
      newTokens: generated.length,
      firstTokenMs,
      totalMs: performance.now() - started,
      kvBytes: cacheBytes(output.past_key_values),
    };
    if (signal.aborted) throw abortError(signal);

    const eos = m.generation_config?.eos_token_id ?? (m.config as { eos_token_id?: number | number[] }).eos_token_id;
    const eosIds = new Set((Array.isArray(eos) ? eos : eos === undefined || eos === null ? [] : [eos]).map(Number));
    let end = generated.length;
    while (end > 0 && eosIds.has(Number(generated[end - 1]))) end--;
    return tok.decode(generated.slice(0, end), { skip_special_tokens: false });
  };

  const provider: TransformersProvider = {
    id: spec.id,
    model: spec,
    toolsInline: spec.toolsInline,
    callFormat: spec.callFormat,
    get loaded() {
      return model !== undefined;
    },
    get lastGeneration() {
      return lastGeneration;
    },
    device,

    prepare: async (onProgress, signal) => {
      await ensureLoaded(onProgress, signal);
      onProgress(1);
      touch();
    },

    generate: (req) => exclusive(() => generateNow(req)).finally(touch),

    fits: async (req) => {
      configureEnv(await device());
      const tok = await loadTokenizer();
      const ids = encodePrompt(tok, req).input_ids;
      return ids.dims[1] + (req.maxNewTokens ?? defaultMaxNewTokens) <= contextLimit();
    },

    isCached: async () => {
      configureEnv(await device());
      try {
        return await ModelRegistry.is_cached(spec.id, { ...(await fileOptions()) } as never);
      } catch {
        // Unreadable cache or config: treat as not there; prepare will say what is wrong.
        return false;
      }
    },

    storedBytes: async () => {
      configureEnv(await device());
      const opts = await fileOptions();
      try {
        if (!(await ModelRegistry.is_cached(spec.id, { ...opts } as never))) return undefined;
        const files = await modelFiles();
        const sizes = await Promise.all(
          files.map(
            async (file) =>
              ((await ModelRegistry.get_file_metadata(spec.id, file, { revision } as never)) as { size?: number })
                .size ?? 0,
          ),
        );
        return sizes.reduce((a, b) => a + b, 0);
      } catch {
        return undefined;
      }
    },

    deleteModel: async () => {
      await exclusive(unloadNow);
      configureEnv(await device());
      await ModelRegistry.clear_cache(spec.id, { ...(await fileOptions()) } as never);
    },

    unload: () => exclusive(unloadNow),
  };
  return provider;
}

