import type { DeviceFacts } from './choose-device';
import { createTransformersProvider, type TransformersProvider, type TransformersProviderOptions } from './create-transformers-provider';
import {
  type EngineCall,
  type EngineConfig,
  type EnginePort,
  type EngineReply,
  type EngineRequest,
  deserializeError,
  serializeError,
} from './engine-messages';
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
 * connectTransformersEngine's calls over `port` (the worker global, or a MessagePort). One model is in memory at a
 * time: preparing one unloads the others, so switching models never holds two in GPU memory.
 */
export function serveTransformersEngine(port: EnginePort, environment: EngineEnvironment): void {
  const create = environment.createProvider ?? createTransformersProvider;
  const providers = new Map<string, TransformersProvider>();
  const running = new Map<number, AbortController>();
  let config: EngineConfig = {};
  const post = (reply: EngineReply) => port.postMessage(reply);

  const providerFor = (model: EngineCall['model']) => {
    let provider = providers.get(model.id);
    if (!provider) {
      provider = create({
        ...config,
        model,
        facts: environment.facts,
        fetch: environment.fetch,
        cache: environment.cache,
        onUnload: () => post({ type: 'engine/unloaded', modelId: model.id }),
      });
      providers.set(model.id, provider);
    }
    return provider;
  };

  const perform = async (id: number, call: EngineCall, signal: AbortSignal) => {
    const provider = providerFor(call.model);
    switch (call.op) {
      case 'prepare':
        for (const [otherId, other] of providers) {
          if (otherId !== call.model.id && other.loaded) {
            await other.unload();
            post({ type: 'engine/unloaded', modelId: otherId });
          }
        }
        await provider.prepare((progress) => post({ type: 'engine/progress', id, progress }), signal);
        return null;
      case 'generate':
        return provider.generate({
          ...call.req,
          signal,
          onText: call.stream ? (delta) => post({ type: 'engine/text', id, delta }) : undefined,
        });
      case 'fits':
        return provider.fits(call.req);
      case 'is-cached':
        return provider.isCached();
      case 'stored-bytes':
        return provider.storedBytes();
      case 'delete':
        await provider.deleteModel();
        return null;
      case 'unload':
        await provider.unload();
        return null;
      case 'device':
        return provider.device();
    }
  };

  port.addEventListener('message', (event) => {
    const message = event.data as EngineRequest;
    if (message?.type === 'engine/configure') {
      config = message.config;
      // Providers made before keep their settings; new settings apply to models used from now on.
      for (const [id, provider] of providers) if (!provider.loaded) providers.delete(id);
      return;
    }
    if (message?.type === 'engine/abort') {
      running.get(message.id)?.abort(deserializeError(message.reason));
      return;
    }
    if (message?.type !== 'engine/call') return;
    const { id, call } = message;
    const controller = new AbortController();
    running.set(id, controller);
    perform(id, call, controller.signal)
      .then(
        (value) => {
          const provider = providers.get(call.model.id);
          const state = { loaded: provider?.loaded ?? false, lastGeneration: provider?.lastGeneration };
          post({ type: 'engine/done', id, value: value ?? null, state });
        },
        (error: unknown) => {
          const provider = providers.get(call.model.id);
          const state = { loaded: provider?.loaded ?? false, lastGeneration: provider?.lastGeneration };
          post({ type: 'engine/failed', id, error: serializeError(error), state });
        },
      )
      .finally(() => running.delete(id));
  });
  port.start?.();
}
