import type { GenerateRequest, LocalProvider } from '../agent/local-provider';
import { abortError } from './abort-error';
import { type DeviceChoice, type DeviceFacts, chooseDevice } from './choose-device';
import { configureTransformersEnv } from './configure-transformers-env';
import { createExclusiveQueue } from './create-exclusive-queue';
import { createIdleTimer } from './create-idle-timer';
import { createKvPrefixCache } from './create-kv-prefix-cache';
import { type GenerationStats, generateReply } from './generate-reply';
import { loadTransformersModel } from './load-transformers-model';
import { type LocalModelSpec, recommendedModel } from './model-catalog';
import { storedModelBytes } from './stored-model-bytes';
import { stripTrailingEos } from './strip-trailing-eos';
import { toTemplateMessages, toTemplateTool } from './to-template-messages';
import {
  type CausalLM,
  clearModelCache,
  encodeChat,
  eosTokenId,
  isModelCached,
  type LoadProgress,
  listModelFiles,
  loadTokenizerFiles,
  type ModelFileCache,
  type ModelFileOptions,
  maxPositions,
  type Tokenizer,
} from './transformers-runtime';

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

/**
 * Create a LocalProvider over transformers.js (design: docs/platform-notes.md § transformers.js 4.3 in an MV3 extension).
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
  const kv = createKvPrefixCache();
  let lastGeneration: GenerationStats | undefined;

  const device = () => {
    devicePromise ??= chooseDevice(options.facts ?? {}, spec);
    return devicePromise;
  };

  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const configureEnv = (choice: DeviceChoice) =>
    configureTransformersEnv(choice, {
      remoteHost: options.remoteHost,
      remotePathTemplate: options.remotePathTemplate,
      fetch: baseFetch,
      cache: options.cache,
      wasmPaths: options.wasmPaths,
    });

  /** Run after everything queued before: ORT sessions are not re-entrant, and unloading waits for a generation. */
  const exclusive = createExclusiveQueue();
  const idle = createIdleTimer(idleUnloadMs, () => {
    // Only between generations: a running one keeps the model.
    void exclusive(async () => {
      if (!model) return;
      await unloadNow();
      options.onUnload?.();
    });
  });
  const touch = () => (model ? idle.restart() : idle.cancel());

  const unloadNow = async () => {
    idle.cancel();
    await kv.drop();
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
  const fileOptions = async (): Promise<ModelFileOptions> => {
    const choice = await device();
    return { revision, dtype: choice.dtype, device: choice.device, include_processor: false };
  };

  const modelFiles = async (): Promise<string[]> => listModelFiles(spec.id, await fileOptions());

  const loadTokenizer = async (progress_callback?: (info: LoadProgress) => void) => {
    if (tokenizer) return tokenizer;
    tokenizerPromise ??= loadTokenizerFiles(spec.id, { revision, progress_callback }).catch((error: unknown) => {
      tokenizerPromise = undefined;
      throw error;
    });
    tokenizer = await tokenizerPromise;
    return tokenizer;
  };

  const load = async (onProgress: (progress: number) => void, signal?: AbortSignal) => {
    const choice = await device();
    configureEnv(choice);
    signal?.throwIfAborted();
    await loadTransformersModel({
      spec,
      revision,
      choice,
      files: await modelFiles(),
      loadTokenizer,
      retries: options.downloadRetries ?? 3,
      retryDelayMs: options.retryDelayMs ?? 1000,
      onProgress,
      signal,
      onLoaded: (loaded) => {
        tokenizer = loaded.tokenizer;
        model = loaded.model;
      },
    });
  };

  const ensureLoaded = (onProgress: (progress: number) => void = () => {}, signal?: AbortSignal) => {
    if (model) return Promise.resolve();
    loading ??= load(onProgress, signal).finally(() => {
      loading = undefined;
    });
    return loading;
  };

  const encodePrompt = (tok: Tokenizer, req: Omit<GenerateRequest, 'signal'>) =>
    encodeChat(tok, toTemplateMessages(req.messages, spec.historyStyle), {
      tools: req.tools?.map(toTemplateTool),
      add_generation_prompt: true,
      return_dict: true,
      ...spec.templateOptions,
    });

  const contextLimit = () => {
    const max = maxPositions(model);
    return max ? Math.min(max, spec.contextTokens) : spec.contextTokens;
  };

  const generateNow = async (req: GenerateRequest & { onText?: (delta: string) => void }): Promise<string> => {
    const { signal } = req;
    signal.throwIfAborted();
    await ensureLoaded(() => {}, signal);
    const tok = tokenizer as Tokenizer;
    const m = model as CausalLM;
    const started = performance.now();
    const { generated, stats } = await generateReply({
      model: m,
      tokenizer: tok,
      prompt: encodePrompt(tok, req),
      kv,
      stopAfter: spec.toolCallEnd,
      maxNewTokens: req.maxNewTokens ?? defaultMaxNewTokens,
      signal,
      onText: req.onText,
      started,
    });
    lastGeneration = stats;
    if (signal.aborted) throw abortError(signal);
    return tok.decode(stripTrailingEos(generated, eosTokenId(m)), { skip_special_tokens: false });
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
        return await isModelCached(spec.id, await fileOptions());
      } catch {
        // Unreadable cache or config: treat as not there; prepare will say what is wrong.
        return false;
      }
    },

    storedBytes: async () => {
      configureEnv(await device());
      return storedModelBytes(spec.id, revision, fileOptions);
    },

    deleteModel: async () => {
      await exclusive(unloadNow);
      configureEnv(await device());
      await clearModelCache(spec.id, await fileOptions());
    },

    unload: () => exclusive(unloadNow),
  };
  return provider;
}
