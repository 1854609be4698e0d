import { describe, expect, it } from 'vitest';
import { createMemoryModelCache } from '../../tests/model/memory-model-cache';
import { configureTransformersEnv } from './configure-transformers-env';
import { resumableFetch } from './resumable-fetch';
import { env } from './transformers-runtime';

// transformers.js's env is one global: this file sets it on its own (Vitest runs each file in its own module graph).

describe('configureTransformersEnv', () => {
  it('points transformers.js at the model host, through the resumable fetch, with remote models only', () => {
    configureTransformersEnv(
      { device: 'cpu', dtype: 'q4', numThreads: 1 },
      { remoteHost: 'http://127.0.0.1:9/', fetch: async () => new Response('') },
    );
    expect(env.allowLocalModels).toBe(false);
    expect(env.allowRemoteModels).toBe(true);
    expect(env.remoteHost).toBe('http://127.0.0.1:9/');
    expect(env.remotePathTemplate).toBe('{model}/resolve/{revision}/');
    expect(env.fetch).toBe(resumableFetch);
    configureTransformersEnv({ device: 'cpu', dtype: 'q4', numThreads: 1 }, { fetch: async () => new Response('') });
    expect(env.remoteHost).toBe('https://huggingface.co/');
  });

  it('keeps model files in the provider’s cache only', () => {
    const cache = createMemoryModelCache();
    configureTransformersEnv({ device: 'cpu', dtype: 'q4', numThreads: 1 }, { fetch: async () => new Response(''), cache });
    expect(env.useCustomCache).toBe(true);
    expect(env.customCache).toBe(cache);
    expect(env.useBrowserCache).toBe(false);
    expect(env.useFSCache).toBe(false);
  });

  it('gives onnxruntime-web its shipped files and the device’s threads, and no blob: loader when ORT starts its own threads', () => {
    const wasm = env.backends.onnx.wasm;
    if (!wasm) throw new Error('transformers.js offers no wasm backend settings here');
    configureTransformersEnv(
      { device: 'wasm', dtype: 'q4', numThreads: 3 },
      { fetch: async () => new Response(''), wasmPaths: { wasm: 'chrome-extension://x/ort/ort.wasm' } },
    );
    expect(wasm.wasmPaths).toEqual({ wasm: 'chrome-extension://x/ort/ort.wasm' });
    expect(wasm.numThreads).toBe(3);
    const paths = { wasm: 'chrome-extension://x/ort/ort.wasm', mjs: 'chrome-extension://x/ort/ort.mjs' };
    configureTransformersEnv({ device: 'wasm', dtype: 'q4', numThreads: 1 }, { fetch: async () => new Response(''), wasmPaths: paths });
    expect(wasm.wasmPaths).toEqual(paths);
    expect(wasm.wasmPaths).not.toBe(paths);
    expect(env.useWasmCache).toBe(false);
  });
});
