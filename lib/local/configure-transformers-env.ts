import type { DeviceChoice } from './choose-device';
import { resumableFetch, setBaseFetch } from './resumable-fetch';
import { asCustomCache, env, type ModelFileCache } from './transformers-runtime';

/** What a provider sets in transformers.js's global `env` (TransformersProviderOptions explains each). */
interface TransformersEnvOptions {
  remoteHost?: string;
  remotePathTemplate?: string;
  /** The context's fetch: every download goes through it, by way of resumableFetch. */
  fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
  cache?: ModelFileCache;
  wasmPaths?: { wasm: string; mjs?: string };
}

/**
 * Sets what a provider owns of transformers.js's one global `env`: remote models only, from the model host, through
 * the resumable fetch, kept in the provider's cache, with onnxruntime-web's own files and the device's thread count.
 * A provider calls it before each load or cache query, so run one engine per context with one set of options.
 *
 * @param choice Where and how the model runs (chooseDevice).
 * @param options The provider's options.
 */
export function configureTransformersEnv(choice: DeviceChoice, options: TransformersEnvOptions): void {
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  env.remoteHost = options.remoteHost ?? 'https://huggingface.co/';
  env.remotePathTemplate = options.remotePathTemplate ?? '{model}/resolve/{revision}/';
  setBaseFetch(options.fetch);
  env.fetch = resumableFetch;
  if (options.cache) {
    env.useCustomCache = true;
    env.customCache = asCustomCache(options.cache);
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
}
