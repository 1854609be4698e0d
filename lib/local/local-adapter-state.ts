import type { AdapterStatus } from '../agent/types';
import type { DeviceChoice } from './choose-device';
import type { PromptApiProvider } from './create-prompt-api-provider';
import type { TransformersProvider } from './create-transformers-provider';
import { type DeviceTestResults, resultFor } from '../storage/device-test-results';
import type { DeviceTestResult } from './measure-device';
import { type LocalModelSpec, modelCatalog, recommendedModel } from './model-catalog';
import { PROMPT_API_CHOICE } from './recommend-model';

/**
 * What createLocalAdapter's steps share: the models and engines it was given, what it has learnt of them (cached
 * flags, device choices, the recommendation), the person's pick, the status and who is using the engine. One plain
 * object passed to each step, so a step's inputs are its arguments and not a closure's.
 */
export interface LocalAdapterState {
  /** The models offered (never empty). */
  readonly catalog: readonly LocalModelSpec[];
  /** The engine for one catalog model; called once per model id, through providerOf. */
  readonly provider: (model: LocalModelSpec) => TransformersProvider;
  /** Chrome's built-in model as one more choice. */
  readonly promptApi?: PromptApiProvider;
  /** `navigator.deviceMemory` of the context, in GB, for the recommendation. */
  readonly deviceMemoryGb?: number;
  /** "Test this device" results kept so far. */
  readonly deviceTests?: () => DeviceTestResults;
  /** The engine made for each model id so far. */
  readonly providers: Map<string, TransformersProvider>;
  /** Whether each model's files are all in the cache, as last read. */
  readonly cached: Map<string, boolean>;
  /** Where and how each model runs here, once its engine said. */
  readonly devices: Map<string, DeviceChoice>;
  /** The panels listening to status changes. */
  readonly listeners: Set<() => void>;
  status: AdapterStatus;
  /** What holds the engine now: at most one reply, download or device test at a time. */
  busy: 'run' | 'prepare' | 'test' | undefined;
  /** The model "Test this device" is measuring, which may not be the selected one. */
  testing: string | undefined;
  /** The refresh under way, which callers share. */
  refreshing: Promise<void> | undefined;
  /** The model id in use. */
  selected: string;
  /** The person picked `selected` (saved or made now): the recommendation no longer moves it. */
  personChose: boolean;
  /** What fits this device and why, once its facts are known. */
  recommendation: { id: string; reason: string } | undefined;
}

/** What createLocalAdapterState reads of createLocalAdapter's options. */
interface LocalAdapterStateOptions {
  provider: (model: LocalModelSpec) => TransformersProvider;
  catalog?: readonly LocalModelSpec[];
  promptApi?: PromptApiProvider;
  modelId?: string;
  deviceMemoryGb?: number;
  deviceTests?: () => DeviceTestResults;
}

/**
 * The adapter's state before anything is known: status "loading", the saved pick if it is still offered, else the
 * catalog's own recommended model until the device's facts pick one. Throws on an empty catalog.
 */
export function createLocalAdapterState(options: LocalAdapterStateOptions): LocalAdapterState {
  const catalog = options.catalog ?? modelCatalog;
  if (catalog.length === 0) throw new Error('The on-device model catalog is empty.');
  const state: LocalAdapterState = {
    catalog,
    provider: options.provider,
    promptApi: options.promptApi,
    deviceMemoryGb: options.deviceMemoryGb,
    deviceTests: options.deviceTests,
    providers: new Map(),
    cached: new Map(),
    devices: new Map(),
    listeners: new Set(),
    status: { state: 'loading' },
    busy: undefined,
    testing: undefined,
    refreshing: undefined,
    selected: '',
    personChose: false,
    recommendation: undefined,
  };
  state.selected = options.modelId && isKnownModel(state, options.modelId) ? options.modelId : recommendedModel(catalog).id;
  // The person's pick (saved or made now) stands; otherwise the device decides once its facts are known.
  state.personChose = state.selected === options.modelId;
  return state;
}

/** The catalog entry with this id, if any (Chrome's built-in model has none). */
export function specOf(state: LocalAdapterState, id: string): LocalModelSpec | undefined {
  return state.catalog.find((m) => m.id === id);
}

/** The id is one of the choices: a catalog model, or Chrome's built-in model where it was given. */
export function isKnownModel(state: LocalAdapterState, id: string): boolean {
  return specOf(state, id) !== undefined || (id === PROMPT_API_CHOICE && !!state.promptApi);
}

/** The engine of one model, made on first use and kept, so each model has one engine (and one copy in memory). */
export function providerOf(state: LocalAdapterState, spec: LocalModelSpec): TransformersProvider {
  let p = state.providers.get(spec.id);
  if (!p) {
    p = state.provider(spec);
    state.providers.set(spec.id, p);
  }
  return p;
}

/** Set the status and tell every listener (a copy of the set, so a listener may unsubscribe while told). */
export function setStatus(state: LocalAdapterState, next: AdapterStatus): void {
  state.status = next;
  for (const listener of [...state.listeners]) listener();
}

/** The catalog's own recommended model until this device's facts are known, then the device's. */
export function recommendedId(state: LocalAdapterState): string {
  return state.recommendation?.id ?? recommendedModel(state.catalog).id;
}

/** What "Test this device" last measured for a model here (on the device it runs on now, first), if anything. */
export function deviceTestOf(state: LocalAdapterState, spec: LocalModelSpec): DeviceTestResult | undefined {
  return resultFor(state.deviceTests?.() ?? {}, spec.id, state.devices.get(spec.id));
}
