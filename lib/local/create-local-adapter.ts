import type { LocalProvider } from '../agent/local-provider';
import { runLocalAgent } from '../agent/run-local-agent';
import type { AdapterStatus, AgentAdapter, AgentRunRequest, AgentStreamPart, ModelChoice } from '../agent/types';
import type { PromptApiProvider } from './create-prompt-api-provider';
import type { TransformersProvider } from './create-transformers-provider';
import { type DeviceTestResults, formatDeviceSpeed, resultFor } from './device-test-results';
import { type DeviceTestPhase, type DeviceTestResult, measureDevice } from './measure-device';
import { type LocalModelSpec, recommendedModel } from './model-catalog';
import { needsDownloadStatus } from './needs-download-status';
import { refreshModelFacts } from './refresh-model-facts';
import { restingStatus } from './resting-status';
import { createLocalAdapterState, isKnownModel, providerOf, setStatus, specOf } from './local-adapter-state';
import { PROMPT_API_CHOICE } from './recommend-model';
import { errorMessage } from '../shared/error-message';
import type { LocalModelDetails } from '../messaging/options-messages';

export type { LocalModelDetails };

export { NO_WEBGPU_NOTE } from './needs-download-status';

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
  const state = createLocalAdapterState(options);
  const { catalog } = state;

  /** Load (or download) the selected model, reporting it in the status; throws what failed. */
  const load = async (spec: LocalModelSpec, signal?: AbortSignal) => {
    const p = providerOf(state, spec);
    if (p.loaded) {
      setStatus(state, { state: 'ready' });
      return;
    }
    const wasCached = state.cached.get(spec.id) ?? (await p.isCached().catch(() => false));
    const progressStatus = (progress: number): AdapterStatus =>
      wasCached ? { state: 'loading', progress } : { state: 'downloading', progress };
    setStatus(state, progressStatus(0));
    try {
      await p.prepare((progress) => setStatus(state, progressStatus(progress)), signal);
      state.cached.set(spec.id, true);
      setStatus(state, { state: 'ready' });
    } catch (error) {
      const nowCached = await p.isCached().catch(() => false);
      state.cached.set(spec.id, nowCached);
      if (signal?.aborted) setStatus(state, nowCached ? { state: 'ready' } : needsDownloadStatus(spec, state.devices.get(spec.id)));
      else if (nowCached) setStatus(state, { state: 'error', error: `The on-device model failed to load: ${errorMessage(error)}` });
      else {
        setStatus(
          state,
          needsDownloadStatus(
            spec,
            state.devices.get(spec.id),
            `The last download stopped (${errorMessage(error)}); downloading again resumes it.`,
          ),
        );
      }
      throw error;
    }
  };

  const testOf = (spec: LocalModelSpec) => resultFor(options.deviceTests?.() ?? {}, spec.id, state.devices.get(spec.id));

  const choices = (): ModelChoice[] => {
    const list: ModelChoice[] = catalog.map((spec) => {
      const device = state.devices.get(spec.id);
      const test = testOf(spec);
      return {
        id: spec.id,
        label: spec.label,
        brief: spec.brief,
        bytes: device ? spec.bytes[device.dtype] : undefined,
        cached: state.cached.get(spec.id) ?? false,
        recommended: spec.id === (state.recommendation?.id ?? recommendedModel(catalog).id),
        ...(spec.id === state.recommendation?.id ? { why: state.recommendation.reason } : {}),
        selected: spec.id === state.selected,
        ...(test ? { measured: formatDeviceSpeed(test) } : {}),
      };
    });
    if (options.promptApi) {
      list.push({
        id: PROMPT_API_MODEL_ID,
        label: 'Chrome built-in',
        brief: "Chrome's own model: nothing to download here, where Chrome offers it.",
        ...(state.recommendation?.id === PROMPT_API_MODEL_ID ? { recommended: true, why: state.recommendation.reason } : {}),
        selected: state.selected === PROMPT_API_MODEL_ID,
      });
    }
    return list;
  };

  async function* run(req: AgentRunRequest): AsyncIterable<AgentStreamPart> {
    if (state.busy) {
      yield { type: 'error', error: 'The on-device model is busy: wait for the download or the reply to finish.' };
      return;
    }
    state.busy = 'run';
    try {
      let provider: LocalProvider;
      if (state.selected === PROMPT_API_MODEL_ID && options.promptApi) {
        const s = await options.promptApi.status();
        if (s.state !== 'ready') {
          yield { type: 'error', error: s.state === 'unavailable' ? s.reason : 'Download Chrome’s built-in model first.' };
          return;
        }
        provider = options.promptApi;
      } else {
        const spec = specOf(state, state.selected) as LocalModelSpec;
        const p = providerOf(state, spec);
        if (!p.loaded) {
          if (!(state.cached.get(spec.id) ?? (await p.isCached().catch(() => false)))) {
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
      state.busy = undefined;
    }
  }

  void refreshModelFacts(state);

  return {
    id: options.id ?? 'local',
    label: options.label ?? 'On-device',
    status: () => state.status,
    subscribe: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    models: choices,
    run,

    prepare: async (signal) => {
      if (state.busy) throw new Error('The on-device model is busy: wait for the download or the reply to finish.');
      state.busy = 'prepare';
      try {
        if (state.selected === PROMPT_API_MODEL_ID && options.promptApi) {
          const api = options.promptApi;
          setStatus(state, { state: 'downloading', progress: 0 });
          try {
            await api.prepare((progress) => setStatus(state, { state: 'downloading', progress }), signal);
          } finally {
            setStatus(state, await api.status());
          }
          return;
        }
        await load(specOf(state, state.selected) as LocalModelSpec, signal);
      } finally {
        state.busy = undefined;
      }
    },

    selectModel: async (id) => {
      if (state.busy) throw new Error('Wait for the reply or the download to finish before switching models.');
      if (!isKnownModel(state, id)) throw new Error(`There is no on-device model "${id}".`);
      state.personChose = true;
      if (id === state.selected) return;
      const previous = specOf(state, state.selected);
      state.selected = id;
      options.onModelChange?.(id);
      setStatus(state, { state: 'loading' });
      // Free the old model's memory now rather than at its idle timeout.
      if (previous)
        await providerOf(state, previous)
          .unload()
          .catch(() => {});
      await refreshModelFacts(state);
    },

    listModels: async () => {
      await refreshModelFacts(state);
      return Promise.all(
        catalog.map(async (spec) => {
          const device = state.devices.get(spec.id);
          const isCached = state.cached.get(spec.id) ?? false;
          const storedBytes = isCached
            ? await providerOf(state, spec)
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
            recommended: spec.id === (state.recommendation?.id ?? recommendedModel(catalog).id),
            ...(test ? { deviceTest: test } : {}),
          };
        }),
      );
    },

    testModel: async (id, onPhase, signal) => {
      const spec = specOf(state, id);
      if (!spec) throw new Error(`There is no on-device model "${id}".`);
      if (state.busy) throw new Error('The on-device model is busy: wait for the reply or the download to finish, then test.');
      state.busy = 'test';
      try {
        const p = providerOf(state, spec);
        if (!(await p.isCached().catch(() => false))) throw new Error(`${spec.label} is not downloaded on this device: download it first.`);
        try {
          return await measureDevice(p, { onPhase, signal });
        } finally {
          // Testing another model than the one in use must not leave two models in memory.
          if (id !== state.selected) await p.unload().catch(() => {});
        }
      } finally {
        state.busy = undefined;
        // The test loaded this model; a different selected model's status is unchanged, but panels hear either way.
        if (!state.refreshing) setStatus(state, await restingStatus(state));
      }
    },

    deleteModel: async (id) => {
      const spec = specOf(state, id);
      if (!spec) throw new Error(`There is no on-device model "${id}".`);
      if (state.busy && id === state.selected) throw new Error('Wait for the reply or the download to finish before deleting the model.');
      await providerOf(state, spec).deleteModel();
      state.cached.set(id, false);
      await refreshModelFacts(state);
    },

    refresh: () => refreshModelFacts(state),
  };
}
