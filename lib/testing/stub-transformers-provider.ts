import type { DeviceChoice } from '../local/choose-device';
import type { TransformersProvider } from '../local/create-transformers-provider';
import type { LocalModelSpec } from '../local/model-catalog';
import { createScriptedProvider, type ScriptedReply } from './scripted-provider';

/** What a stub engine does; every field may be changed while a test runs. */
interface StubTransformersProviderOptions {
  /** Where it says the model runs, or the error device() rejects with. Default: the CPU with q4 weights. */
  device?: DeviceChoice | Error;
  /** Whether the model's files are in the cache (isCached), before any prepare. Default false. */
  cached?: boolean;
  /** isCached rejects with this instead of answering. */
  cachedError?: Error;
  /** The model starts in memory. */
  loaded?: boolean;
  /** Progress values prepare reports before it resolves. Default [0.5, 1]. */
  progress?: number[];
  /** prepare rejects with this (after its progress), as it does when its signal aborted. */
  prepareError?: Error;
  /** isCached after a failed or stopped prepare (part of the files kept, or all). Default: as before it. */
  cachedAfterFailure?: boolean;
  /** prepare waits for this before it finishes (to hold the engine busy). */
  prepareGate?: Promise<void>;
  /** Bytes in the cache when cached. Default 1000. */
  storedBytes?: number;
  /** Replies to generate, as createScriptedProvider plays them. */
  replies?: readonly ScriptedReply[];
}

/** A stub engine and what it was asked. */
interface StubTransformersProvider extends TransformersProvider {
  /** The stub's behaviour, to change between steps of a test. */
  readonly stub: StubTransformersProviderOptions & { cached: boolean };
  /** How many times unload and deleteModel were called. */
  readonly calls: { prepare: number; unload: number; deleteModel: number };
}

/**
 * A TransformersProvider test double for the adapter's steps: no model files, no network, no ONNX runtime. It
 * answers device/isCached/storedBytes from its options, "downloads" by reporting the given progress, and generates
 * from a script (createScriptedProvider). The real engine is tested in create-transformers-provider.test.ts and,
 * with the adapter around it, in create-local-adapter.test.ts.
 */
export function createStubTransformersProvider(
  model: LocalModelSpec,
  options: StubTransformersProviderOptions = {},
): StubTransformersProvider {
  const stub = { ...options, cached: options.cached ?? false };
  const calls = { prepare: 0, unload: 0, deleteModel: 0 };
  const scripted = createScriptedProvider(options.replies ?? [], { id: model.id, toolsInline: model.toolsInline });
  let loaded = options.loaded ?? false;
  return {
    ...scripted,
    model,
    stub,
    calls,
    get loaded() {
      return loaded;
    },
    lastGeneration: undefined,
    device: async () => {
      const device = stub.device ?? { device: 'cpu', dtype: 'q4', numThreads: 1 };
      if (device instanceof Error) throw device;
      return device;
    },
    isCached: async () => {
      if (stub.cachedError) throw stub.cachedError;
      return stub.cached;
    },
    storedBytes: async () => (stub.cached ? (stub.storedBytes ?? 1000) : undefined),
    prepare: async (onProgress, signal) => {
      calls.prepare++;
      for (const p of stub.progress ?? [0.5, 1]) onProgress(p);
      await stub.prepareGate;
      if (signal?.aborted || stub.prepareError) {
        stub.cached = stub.cachedAfterFailure ?? stub.cached;
        signal?.throwIfAborted();
        throw stub.prepareError;
      }
      stub.cached = true;
      loaded = true;
    },
    unload: async () => {
      calls.unload++;
      loaded = false;
    },
    deleteModel: async () => {
      calls.deleteModel++;
      stub.cached = false;
      loaded = false;
    },
    fits: async () => true,
    generate: (req) => scripted.generate(req),
  };
}

/**
 * The `provider` option of createLocalAdapter (or createLocalAdapterState) over stub engines: each model's stub is
 * made with `options(model)` on first use and kept in `made`, so a test can steer it and read what it was asked.
 */
export function stubEngines(options: (model: LocalModelSpec) => StubTransformersProviderOptions = () => ({})): {
  provider: (model: LocalModelSpec) => StubTransformersProvider;
  made: Map<string, StubTransformersProvider>;
} {
  const made = new Map<string, StubTransformersProvider>();
  return {
    made,
    provider: (model) => {
      const stub = createStubTransformersProvider(model, options(model));
      made.set(model.id, stub);
      return stub;
    },
  };
}
