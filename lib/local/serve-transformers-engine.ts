import { createRequestLine, type LineHandlers, type RequestLine } from '../messaging/create-request-line';
import { workerTransport } from '../messaging/worker-transport';
import type { DeviceFacts } from './choose-device';
import { createTransformersProvider, type TransformersProvider, type TransformersProviderOptions } from './create-transformers-provider';
import type { EngineAsks, EngineConfig, EngineNotices, EnginePort } from './engine-messages';
import type { LocalModelSpec } from './model-catalog';
import type { ModelFileCache } from './transformers-runtime';

/** What the Worker's entry reads from its own globals and hands the engine. */
interface EngineEnvironment {
  facts: DeviceFacts;
  fetch?: typeof fetch;
  /** Unset: transformers.js's default (the Cache API's `transformers-cache` in browsers). */
  cache?: ModelFileCache;
  /** For tests: the provider factory. */
  createProvider?: (options: TransformersProviderOptions) => TransformersProvider;
}

/**
 * The Worker side of the engine: runs createTransformersProvider for each model the host names and answers
 * connectTransformersEngine's asks on the engine's request line over `port` (the worker global, or a MessagePort).
 * One model is in memory at a time: preparing one unloads the others, so switching models never holds two in GPU
 * memory. After every operation the model's state goes to the host, before the answer.
 */
export function serveTransformersEngine(port: EnginePort, environment: EngineEnvironment): void {
  const create = environment.createProvider ?? createTransformersProvider;
  const providers = new Map<string, TransformersProvider>();
  let config: EngineConfig = {};
  let line: RequestLine<EngineNotices> | undefined;
  const unloaded = (modelId: string) => line?.notify('engine/unloaded', { modelId });

  const providerFor = (model: LocalModelSpec) => {
    let provider = providers.get(model.id);
    if (!provider) {
      provider = create({
        ...config,
        model,
        facts: environment.facts,
        fetch: environment.fetch,
        cache: environment.cache,
        onUnload: () => unloaded(model.id),
      });
      providers.set(model.id, provider);
    }
    return provider;
  };

  /** Runs one operation on `model`'s provider and says the model's state after it, whatever the outcome. */
  const on = async <T>(model: LocalModelSpec, work: (provider: TransformersProvider) => Promise<T>): Promise<T> => {
    try {
      return await work(providerFor(model));
    } finally {
      const provider = providers.get(model.id);
      const state = { loaded: provider?.loaded ?? false, lastGeneration: provider?.lastGeneration };
      line?.notify('engine/state', { modelId: model.id, state });
    }
  };

  const configure = (next: EngineConfig) => {
    config = next;
    // Providers made before keep their settings; new settings apply to models used from now on.
    for (const [id, provider] of providers) if (!provider.loaded) providers.delete(id);
  };
  const handlers: LineHandlers<EngineAsks> = {
    'engine/prepare': ({ model }, { signal, update }) =>
      on(model, async (provider) => {
        for (const [otherId, other] of providers) {
          if (otherId !== model.id && other.loaded) {
            await other.unload();
            unloaded(otherId);
          }
        }
        await provider.prepare(update, signal);
        return null;
      }),
    'engine/generate': ({ model, req, stream }, { signal, update }) =>
      on(model, (provider) => provider.generate({ ...req, signal, onText: stream ? update : undefined })),
    'engine/fits': ({ model, req }) => on(model, async (provider) => provider.fits(req)),
    'engine/is-cached': ({ model }) => on(model, (provider) => provider.isCached()),
    'engine/stored-bytes': ({ model }) => on(model, async (provider) => (await provider.storedBytes()) ?? null),
    'engine/delete': ({ model }) =>
      on(model, async (provider) => {
        await provider.deleteModel();
        return null;
      }),
    'engine/unload': ({ model }) =>
      on(model, async (provider) => {
        await provider.unload();
        return null;
      }),
    'engine/device': ({ model }) => on(model, (provider) => provider.device()),
  };
  // Inside the Worker an `error` event is one uncaught error of its own, not the end of the line.
  line = createRequestLine<EngineNotices, EngineAsks>({
    transport: workerTransport(port, { closesOnError: false }),
    handlers,
    notices: { 'engine/configure': (message) => configure(message.config) },
  });
}
