import type { LocalProvider } from '../agent/local-provider';
import { runLocalAgent } from '../agent/run-local-agent';
import type { AdapterStatus, AgentAdapter, AgentRunRequest, AgentStreamPart, ModelChoice } from '../agent/types';
import type { DeviceChoice } from './choose-device';
import type { PromptApiProvider } from './create-prompt-api-provider';
import type { TransformersProvider } from './create-transformers-provider';
import { type DeviceTestResults, formatDeviceSpeed, resultFor } from './device-test-results';
import { type DeviceTestPhase, type DeviceTestResult, measureDevice } from './measure-device';
import { type LocalModelSpec, modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE, recommendModel } from './recommend-model';
import { errorMessage } from '../shared/error-message';
import type { LocalModelDetails } from '../messaging/options-messages';

export type { LocalModelDetails };

/** The download card's caveat where there is no WebGPU adapter. */
export const NO_WEBGPU_NOTE = 'No WebGPU here: a smaller, slower model runs on the CPU.';
/** The id of Chrome's built-in model among the choices. */
export const PROMPT_API_MODEL_ID = PROMPT_API_CHOICE;

/** What createLocalAdapter needs: the engine, the models, and the loop's limits (docs/architecture.md § The on-device loop). */
interface LocalAdapterOptions {
  /**
   * The engine for one catalog model. In the agent host: `connectTransformersEngine(worker).provider`; in tests,
   * `(model) => createTransformersProvider({ model, ... })`. Called once per model id.
   */
  provider: (model: LocalModelSpec) => TransformersProvider;
  /** The models offered. Default: modelCatalog. */
  catalog?: readonly LocalModelSpec[];
  /** Chrome's built-in model (createPromptApiProvider) as one more choice. */
  promptApi?: PromptApiProvider;
  /** The model picked last time, if any. Without one, the adapter picks what fits the device (recommendModel). */
  modelId?: string;
  /** `navigator.deviceMemory` of the context, in GB, for the recommendation (unknown: 4). */
  deviceMemoryGb?: number;
  /** "Test this device" results kept so far (the settings store's, as last read). */
  deviceTests?: () => DeviceTestResults;
  /** Remember the person's pick. */
  onModelChange?: (modelId: string) => void;
  /** Model steps per user message (runLocalAgent's default when unset). */
  maxSteps?: number;
  /** Time limit per generation, in ms. */
  stepTimeoutMs?: number;
  /** What the site is and how its tools fit together. */
  instructions?: string;
  id?: string;
  label?: string;
}

/** The local adapter: an AgentAdapter with every optional member, plus model management for the options page. */
export interface LocalAdapter extends AgentAdapter {
  status: () => AdapterStatus;
  subscribe: (listener: () => void) => () => void;
  prepare: (signal?: AbortSignal) => Promise<void>;
  models: () => readonly ModelChoice[];
  selectModel: (id: string) => Promise<void>;
  /** The catalog with this device's format, sizes and cached flags. */
  listModels: () => Promise<LocalModelDetails[]>;
  /** Delete a model's files (unloading it first). Rejects while it is in use. */
  deleteModel: (modelId: string) => Promise<void>;
  /**
   * "Test this device": run the fixed tool-calling prompt through a downloaded model and measure it. Rejects, in
   * words, when the model is not downloaded or the engine is busy with a reply or a download.
   */
  testModel: (modelId: string, onPhase?: (phase: DeviceTestPhase) => void, signal?: AbortSignal) => Promise<DeviceTestResult>;
  /** Read the cached flags and status again (another context changed the cache, say). */
  refresh: () => Promise<void>;
}

/**
 * Create the on-device adapter (the AgentAdapter of docs/architecture.md § The adapter contract; run is runLocalAgent over the selected model's
 * provider). A download starts only from prepare (the person's click); a model already on this device is "loading",
 * never "downloading"; a cached model that is not in memory yet counts as ready and loads on the first run.
 */
export function createLocalAdapter(options: LocalAdapterOptions): LocalAdapter {
  const catalog = options.catalog ?? modelCatalog;
  if (catalog.length === 0) throw new Error('The on-device model catalog is empty.');
  const providers = new Map<string, TransformersProvider>();
  const cached = new Map<string, boolean>();
  const devices = new Map<string, DeviceChoice>();
  const listeners = new Set<() => void>();
  let status: AdapterStatus = { state: 'loading' };
  let busy: 'run' | 'prepare' | 'test' | undefined;
  let refreshing: Promise<void> | undefined;

  const specOf = (id: string) => catalog.find((m) => m.id === id);
  const isKnown = (id: string) => specOf(id) !== undefined || (id === PROMPT_API_MODEL_ID && !!options.promptApi);
  let selected = options.modelId && isKnown(options.modelId) ? options.modelId : recommendedModel(catalog).id;
  // The person's pick (saved or made now) stands; otherwise the device decides once its facts are known.
  let personChose = selected === options.modelId;
  let recommendation: { id: string; reason: string } | undefined;

  const providerOf = (spec: LocalModelSpec) => {
    let p = providers.get(spec.id);
    if (!p) {
      p = options.provider(spec);
      providers.set(spec.id, p);
    }
    return p;
  };
  const setStatus = (next: AdapterStatus) => {
    status = next;
    for (const listener of [...listeners]) listener();
  };
  const needsDownload = (spec: LocalModelSpec, note?: string): AdapterStatus => {
    const device = devices.get(spec.id);
    const notes = [device && device.device !== 'webgpu' ? NO_WEBGPU_NOTE : undefined, note].filter(Boolean);
    return {
      state: 'needs-download',
      bytes: device ? spec.bytes[device.dtype] : undefined,
      ...(notes.length ? { note: notes.join(' ') } : {}),
    };
  };

  /** The status of the selected model when nothing is running. */
  const restingStatus = async (): Promise<AdapterStatus> => {
    if (selected === PROMPT_API_MODEL_ID && options.promptApi) return options.promptApi.status();
    const spec = specOf(selected) as LocalModelSpec;
    if (!devices.has(spec.id)) {
      try {
        devices.set(spec.id, await providerOf(spec).device());
      } catch (error) {
        return { state: 'unavailable', reason: errorMessage(error) };
      }
    }
    return cached.get(spec.id) || providerOf(spec).loaded ? { state: 'ready' } : needsDownload(spec);
  };

  const refresh = () => {
    refreshing ??= (async () => {
      await Promise.all(
        catalog.map(async (spec) => {
          const p = providerOf(spec);
          cached.set(spec.id, await p.isCached().catch(() => false));
          if (!devices.has(spec.id)) {
            await p.device().then(
              (d) => devices.set(spec.id, d),
              () => {},
            );
          }
        }),
      );
      await recommend();
      if (!busy) setStatus(await restingStatus());
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  /** What fits this device (from the engine's device choices), selected unless the person chose. */
  const recommend = async () => {
    const choices = [...devices.values()];
    const promptApi = options.promptApi ? (await options.promptApi.status()).state !== 'unavailable' : false;
    recommendation = recommendModel(catalog, {
      webgpu: choices.some((d) => d.device === 'webgpu'),
      shaderF16: choices.some((d) => d.dtype === 'q4f16'),
      ...(options.deviceMemoryGb ? { memoryGb: options.deviceMemoryGb } : {}),
      promptApi,
    });
    if (!personChose && !busy && isKnown(recommendation.id)) selected = recommendation.id;
  };

  /** Load (or download) the selected model, reporting it in the status; throws what failed. */
  const load = async (spec: LocalModelSpec, signal?: AbortSignal) => {
    const p = providerOf(spec);
    if (p.loaded) {
      setStatus({ state: 'ready' });
      return;
    }
    const wasCached = cached.get(spec.id) ?? (await p.isCached().catch(() => false));
    const progressStatus = (progress: number): AdapterStatus =>
      wasCached ? { state: 'loading', progress } : { state: 'downloading', progress };
    setStatus(progressStatus(0));
    try {
      await p.prepare((progress) => setStatus(progressStatus(progress)), signal);
      cached.set(spec.id, true);
      setStatus({ state: 'ready' });
    } catch (error) {
      const nowCached = await p.isCached().catch(() => false);
      cached.set(spec.id, nowCached);
      if (signal?.aborted) setStatus(nowCached ? { state: 'ready' } : needsDownload(spec));
      else if (nowCached) setStatus({ state: 'error', error: `The on-device model failed to load: ${errorMessage(error)}` });
      else {
        setStatus(needsDownload(spec, `The last download stopped (${errorMessage(error)}); downloading again resumes it.`));
      }
      throw error;
    }
  };

  const testOf = (spec: LocalModelSpec) => resultFor(options.deviceTests?.() ?? {}, spec.id, devices.get(spec.id));

  const choices = (): ModelChoice[] => {
    const list: ModelChoice[] = catalog.map((spec) => {
      const device = devices.get(spec.id);
      const test = testOf(spec);
      return {
        id: spec.id,
        label: spec.label,
        brief: spec.brief,
        bytes: device ? spec.bytes[device.dtype] : undefined,
        cached: cached.get(spec.id) ?? false,
        recommended: spec.id === (recommendation?.id ?? recommendedModel(catalog).id),
        ...(spec.id === recommendation?.id ? { why: recommendation.reason } : {}),
        selected: spec.id === selected,
        ...(test ? { measured: formatDeviceSpeed(test) } : {}),
      };
    });
    if (options.promptApi) {
      list.push({
        id: PROMPT_API_MODEL_ID,
        label: 'Chrome built-in',
        brief: "Chrome's own model: nothing to download here, where Chrome offers it.",
        ...(recommendation?.id === PROMPT_API_MODEL_ID ? { recommended: true, why: recommendation.reason } : {}),
        selected: selected === PROMPT_API_MODEL_ID,
      });
    }
    return list;
  };

  async function* run(req: AgentRunRequest): AsyncIterable<AgentStreamPart> {
    if (busy) {
      yield { type: 'error', error: 'The on-device model is busy: wait for the download or the reply to finish.' };
      return;
    }
    busy = 'run';
    try {
      let provider: LocalProvider;
      if (selected === PROMPT_API_MODEL_ID && options.promptApi) {
        const s = await options.promptApi.status();
        if (s.state !== 'ready') {
          yield { type: 'error', error: s.state === 'unavailable' ? s.reason : 'Download Chrome’s built-in model first.' };
          return;
        }
        provider = options.promptApi;
      } else {
        const spec = specOf(selected) as LocalModelSpec;
        const p = providerOf(spec);
        if (!p.loaded) {
          if (!(cached.get(spec.id) ?? (await p.isCached().catch(() => false)))) {
            yield { type: 'error', error: 'Download the on-device model first.' };
            return;
          }
          try {
            await load(spec, req.signal);
          } catch (error) {
            if (req.signal.aborted) yield { type: 'finish', reason: 'aborted' };
            else yield { type: 'error', error: `The on-device model failed to load: ${errorMessage(error)}` };
            return;
          }
        }
        provider = p;
      }
      yield* runLocalAgent(provider, req, {
        maxSteps: options.maxSteps,
        stepTimeoutMs: options.stepTimeoutMs,
        instructions: options.instructions,
        toolsInline: provider.toolsInline,
      });
    } finally {
      busy = undefined;
    }
  }

  void refresh();

  return {
    id: options.id ?? 'local',
    label: options.label ?? 'On-device',
    status: () => status,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    models: choices,
    run,

    prepare: async (signal) => {
      if (busy) throw new Error('The on-device model is busy: wait for the download or the reply to finish.');
      busy = 'prepare';
      try {
        if (selected === PROMPT_API_MODEL_ID && options.promptApi) {
          const api = options.promptApi;
          setStatus({ state: 'downloading', progress: 0 });
          try {
            await api.prepare((progress) => setStatus({ state: 'downloading', progress }), signal);
          } finally {
            setStatus(await api.status());
          }
          return;
        }
        await load(specOf(selected) as LocalModelSpec, signal);
      } finally {
        busy = undefined;
      }
    },

    selectModel: async (id) => {
      if (busy) throw new Error('Wait for the reply or the download to finish before switching models.');
      if (!isKnown(id)) throw new Error(`There is no on-device model "${id}".`);
      personChose = true;
      if (id === selected) return;
      const previous = specOf(selected);
      selected = id;
      options.onModelChange?.(id);
      setStatus({ state: 'loading' });
      // Free the old model's memory now rather than at its idle timeout.
      if (previous)
        await providerOf(previous)
          .unload()
          .catch(() => {});
      await refresh();
    },

    listModels: async () => {
      await refresh();
      return Promise.all(
        catalog.map(async (spec) => {
          const device = devices.get(spec.id);
          const isCached = cached.get(spec.id) ?? false;
          const storedBytes = isCached
            ? await providerOf(spec)
                .storedBytes()
                .catch(() => undefined)
            : undefined;
          const test = testOf(spec);
          return {
            id: spec.id,
            label: spec.label,
            brief: spec.brief,
            hardware: spec.hardware,
            bytes: device ? spec.bytes[device.dtype] : undefined,
            dtype: device?.dtype,
            cached: isCached,
            ...(storedBytes !== undefined ? { storedBytes } : {}),
            recommended: spec.id === (recommendation?.id ?? recommendedModel(catalog).id),
            ...(test ? { deviceTest: test } : {}),
          };
        }),
      );
    },

    testModel: async (id, onPhase, signal) => {
      const spec = specOf(id);
      if (!spec) throw new Error(`There is no on-device model "${id}".`);
      if (busy) throw new Error('The on-device model is busy: wait for the reply or the download to finish, then test.');
      busy = 'test';
      try {
        const p = providerOf(spec);
        if (!(await p.isCached().catch(() => false))) throw new Error(`${spec.label} is not downloaded on this device: download it first.`);
        try {
          return await measureDevice(p, { onPhase, signal });
        } finally {
          // Testing another model than the one in use must not leave two models in memory.
          if (id !== selected) await p.unload().catch(() => {});
        }
      } finally {
        busy = undefined;
        // The test loaded this model; a different selected model's status is unchanged, but panels hear either way.
        if (!refreshing) setStatus(await restingStatus());
      }
    },

    deleteModel: async (id) => {
      const spec = specOf(id);
      if (!spec) throw new Error(`There is no on-device model "${id}".`);
      if (busy && id === selected) throw new Error('Wait for the reply or the download to finish before deleting the model.');
      await providerOf(spec).deleteModel();
      cached.set(id, false);
      await refresh();
    },

    refresh,
  };
}
