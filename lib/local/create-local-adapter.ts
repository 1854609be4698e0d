import type { AdapterStatus, AgentAdapter, ModelChoice } from '../agent/types';
import type { LocalModelDetails } from '../messaging/options-messages';
import type { PromptApiProvider } from './create-prompt-api-provider';
import type { TransformersProvider } from './create-transformers-provider';
import { deleteLocalModel } from './delete-local-model';
import type { DeviceTestResults } from '../storage/device-test-results';
import { listLocalModelDetails } from './list-local-model-details';
import { createLocalAdapterState } from './local-adapter-state';
import { localModelChoices } from './local-model-choices';
import type { DeviceTestPhase, DeviceTestResult } from './measure-device';
import type { LocalModelSpec } from './model-catalog';
import { prepareSelectedModel } from './prepare-selected-model';
import { PROMPT_API_CHOICE } from './recommend-model';
import { refreshModelFacts } from './refresh-model-facts';
import { runSelectedModel } from './run-selected-model';
import { selectLocalModel } from './select-local-model';
import { testLocalModel } from './test-local-model';

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
  // The status is "loading" until this first read of the cache and the device gives the resting one.
  void refreshModelFacts(state);

  return {
    id: options.id ?? 'local',
    label: options.label ?? 'On-device',
    status: () => state.status,
    subscribe: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    models: () => localModelChoices(state),
    run: (req) =>
      runSelectedModel(state, req, {
        maxSteps: options.maxSteps,
        stepTimeoutMs: options.stepTimeoutMs,
        instructions: options.instructions,
      }),
    prepare: (signal) => prepareSelectedModel(state, signal),
    selectModel: (id) => selectLocalModel(state, id, options.onModelChange),
    listModels: () => listLocalModelDetails(state),
    testModel: (id, onPhase, signal) => testLocalModel(state, id, onPhase, signal),
    deleteModel: (id) => deleteLocalModel(state, id),
    refresh: () => refreshModelFacts(state),
  };
}
