import type { GenerateRequest } from '../agent/local-provider';
import type { DeviceChoice } from './choose-device';
import type { GenerationStats } from './generate-reply';
import type { TransformersProvider } from './create-transformers-provider';
import {
  type EngineCall,
  type EngineConfig,
  type EngineModelState,
  type EnginePort,
  type EngineReply,
  type EngineRequest,
  deserializeError,
  serializeError,
} from './engine-messages';
import type { LocalModelSpec } from './model-catalog';

/** The host's handle on the engine Worker. */
interface TransformersEngineClient {
  /** A provider for `model` whose work runs in the Worker; the same object for the same model id. */
  provider: (model: LocalModelSpec) => TransformersProvider;
  /** Called with a model id when the Worker unloaded that model (idle, or another model was prepared). */
  onUnloaded: (listener: (modelId: string) => void) => () => void;
  /** New settings (another model host, say); they apply to models not in memory yet. */
  configure: (config: EngineConfig) => void;
}

/** Said when the Worker could not start or crashed (a blocked script, out of memory). */
export const ENGINE_STOPPED = 'The on-device engine stopped';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onProgress?: (progress: number) => void;
  onText?: (delta: string) => void;
  modelId: string;
  signal?: AbortSignal;
}

/**
 * The host side of the engine: TransformersProviders that forward every call to serveTransformersEngine over `port`
 * (a Worker), so generation never blocks the agent host. Stop aborts cross as messages; the Worker stops within one
 * token and the call rejects with the host signal's own reason (so a step timeout stays a timeout).
 */
export function connectTransformersEngine(port: EnginePort, config: EngineConfig = {}): TransformersEngineClient {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const states = new Map<string, EngineModelState>();
  const providers = new Map<string, TransformersProvider>();
  const unloadListeners = new Set<(modelId: string) => void>();
  const send = (message: EngineRequest) => port.postMessage(message);

  port.addEventListener('message', (event) => {
    const reply = event.data as EngineReply;
    if (reply?.type === 'engine/unloaded') {
      const state = states.get(reply.modelId);
      if (state) state.loaded = false;
      for (const listener of [...unloadListeners]) listener(reply.modelId);
      return;
    }
    const entry = reply && 'id' in reply ? pending.get(reply.id) : undefined;
    if (!entry) return;
    switch (reply.type) {
      case 'engine/progress':
        entry.onProgress?.(reply.progress);
        return;
      case 'engine/text':
        entry.onText?.(reply.delta);
        return;
      case 'engine/done':
        pending.delete(reply.id);
        states.set(entry.modelId, reply.state);
        entry.resolve(reply.value);
        return;
      case 'engine/failed':
        pending.delete(reply.id);
        states.set(entry.modelId, reply.state);
        entry.reject(entry.signal?.aborted ? entry.signal.reason : deserializeError(reply.error));
        return;
    }
  });
  let stopped: Error | undefined;
  port.addEventListener('error', (event) => {
    stopped = new Error(`${ENGINE_STOPPED}${event.message ? `: ${event.message}` : '.'}`);
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(stopped);
    }
  });
  port.start?.();
  send({ type: 'engine/configure', config });

  const call = <T>(
    engineCall: EngineCall,
    extra: { signal?: AbortSignal; onProgress?: (p: number) => void; onText?: (d: string) => void } = {},
  ): Promise<T> => {
    const { signal } = extra;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => send({ type: 'engine/abort', id, reason: serializeError(signal?.reason) });
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      pending.set(id, {
        modelId: engineCall.model.id,
        signal,
        onProgress: extra.onProgress,
        onText: extra.onText,
        resolve: (value) => {
          done();
          resolve(value as T);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      send({ type: 'engine/call', id, call: engineCall });
    });
  };

  const provider = (model: LocalModelSpec): TransformersProvider => {
    const existing = providers.get(model.id);
    if (existing) return existing;
    const created: TransformersProvider = {
      id: model.id,
      model,
      toolsInline: model.toolsInline,
      callFormat: model.callFormat,
      get loaded() {
        return states.get(model.id)?.loaded ?? false;
      },
      get lastGeneration(): GenerationStats | undefined {
        return states.get(model.id)?.lastGeneration;
      },
      device: () => call<DeviceChoice>({ op: 'device', model }),
      prepare: (onProgress, signal) => call<void>({ op: 'prepare', model }, { signal, onProgress }),
      generate: ({ signal, onText, ...req }: GenerateRequest & { onText?: (delta: string) => void }) =>
        call<string>({ op: 'generate', model, req, stream: onText !== undefined }, { signal, onText }),
      fits: (req) => {
        // A caller may pass its whole request; an AbortSignal cannot be cloned into the Worker.
        const { signal: _signal, ...rest } = req as GenerateRequest;
        return call<boolean>({ op: 'fits', model, req: rest });
      },
      isCached: () => call<boolean>({ op: 'is-cached', model }),
      storedBytes: async () => (await call<number | null>({ op: 'stored-bytes', model })) ?? undefined,
      deleteModel: () => call<void>({ op: 'delete', model }),
      unload: () => call<void>({ op: 'unload', model }),
    };
    providers.set(model.id, created);
    return created;
  };

  return {
    provider,
    configure: (next) => send({ type: 'engine/configure', config: next }),
    onUnloaded: (listener) => {
      unloadListeners.add(listener);
      return () => unloadListeners.delete(listener);
    },
  };
}
