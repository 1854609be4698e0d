import type { GenerateRequest } from '../agent/local-provider';
import { createRequestLine } from '../messaging/create-request-line';
import { workerTransport } from '../messaging/worker-transport';
import type { DeviceChoice } from './choose-device';
import type { GenerationStats } from './generate-reply';
import type { TransformersProvider } from './create-transformers-provider';
import type { EngineAsks, EngineConfig, EngineModelState, EngineNotices, EnginePort } from './engine-messages';
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

/** Said when the Worker could not start or crashed (a blocked script, out of memory): every pending call fails with it. */
export const ENGINE_STOPPED = 'The on-device engine stopped';

/**
 * The host side of the engine: TransformersProviders that forward every call to serveTransformersEngine on the
 * engine's request line over `port` (a Worker), so generation never blocks the agent host. A stop cancels the ask:
 * the Worker stops within one token, and the call rejects with the host signal's own reason (so a step timeout stays
 * a timeout) once the Worker has ended it. A Worker that dies fails every pending call with ENGINE_STOPPED.
 */
export function connectTransformersEngine(port: EnginePort, config: EngineConfig = {}): TransformersEngineClient {
  const states = new Map<string, EngineModelState>();
  const providers = new Map<string, TransformersProvider>();
  const unloadListeners = new Set<(modelId: string) => void>();
  const line = createRequestLine<EngineAsks, EngineNotices>({
    transport: workerTransport(port),
    notices: {
      'engine/unloaded': ({ modelId }) => {
        const state = states.get(modelId);
        if (state) state.loaded = false;
        for (const listener of [...unloadListeners]) listener(modelId);
      },
      'engine/state': ({ modelId, state }) => {
        states.set(modelId, state);
      },
    },
    closedError: (detail) => new Error(`${ENGINE_STOPPED}${detail ? `: ${detail}` : '.'}`),
  });
  line.notify('engine/configure', { config });

  // Waits after a cancel: the next call must not start before the Worker ended this one, and its state must be in.
  const withStop = <U>(signal?: AbortSignal, onUpdate?: (update: U) => void) => ({ signal, onUpdate, waitAfterCancel: true });

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
      device: (): Promise<DeviceChoice> => line.ask('engine/device', { model }),
      prepare: async (onProgress, signal) => {
        await line.ask('engine/prepare', { model }, withStop(signal, onProgress));
      },
      generate: ({ signal, onText, ...req }: GenerateRequest & { onText?: (delta: string) => void }) =>
        line.ask('engine/generate', { model, req, stream: onText !== undefined }, withStop(signal, onText)),
      fits: (req) => {
        // A caller may pass its whole request; an AbortSignal cannot be cloned into the Worker.
        const { signal: _signal, ...rest } = req as GenerateRequest;
        return line.ask('engine/fits', { model, req: rest });
      },
      isCached: () => line.ask('engine/is-cached', { model }),
      storedBytes: async () => (await line.ask('engine/stored-bytes', { model })) ?? undefined,
      deleteModel: async () => {
        await line.ask('engine/delete', { model });
      },
      unload: async () => {
        await line.ask('engine/unload', { model });
      },
    };
    providers.set(model.id, created);
    return created;
  };

  return {
    provider,
    configure: (next) => line.notify('engine/configure', { config: next }),
    onUnloaded: (listener) => {
      unloadListeners.add(listener);
      return () => unloadListeners.delete(listener);
    },
  };
}
