import { type DeviceTestResults, deviceTestKey, sanitizeDeviceTests } from './device-test-results';
import type { DeviceTestResult } from '../messaging/options-messages';
import { maskApiKey } from './mask-api-key';
import {
  type AgentMode,
  type ApiKeyState,
  CLOUD_PROVIDERS,
  CLOUD_REASONING_LEVELS,
  type CloudPreferences,
  type CloudProvider,
  type CloudReasoning,
  CONFIRMATION_POLICIES,
  type ConfirmationPolicy,
  DEFAULT_SETTINGS,
  type LocalPreferences,
  type OpenAIApi,
  type Settings,
} from './settings';
import { SettingsValidationError } from './settings-validation-error';
import { createStoredGrants, sanitizeGrants, type StoredGrants } from './create-stored-grants';
import { createStoredSites, sanitizeSites, type StoredSites } from './create-stored-sites';
import type { StorageArea, StorageChange } from '../messaging/storage-area';
import {
  type CloudPreferencesInput,
  storedConfirmationPolicy,
  validateApiKey,
  validateCloudPreferences,
  validateModelHost,
} from './validate-settings';

/**
 * Where the store keeps things: browser.storage.local, for everything. Not storage.sync: the key must never sync,
 * a synced provider without its key is half a setting, site instructions outgrow sync's 8 KB items, and the agent
 * host (Chrome's offscreen document) reaches storage through a proxy, so one area keeps one truth.
 */
interface SettingsAreas {
  local: StorageArea;
}

/** The cloud settings the agent host hands to lib/cloud (its CloudSettings), key included. */
export interface CloudSettings {
  provider: CloudProvider;
  baseURL?: string;
  /** Empty for an OpenAI-compatible server that takes no key. */
  apiKey: string;
  /** Empty when the person has not chosen one (enough for a connection test or a model list). */
  model: string;
  reasoning?: CloudReasoning;
  openaiApi?: OpenAIApi;
}

/** The storage keys, one place. The secret keys are never read by read() or subscribe(). */
export const SETTINGS_KEYS = {
  mode: 'settings.mode',
  local: 'settings.local',
  cloud: 'settings.cloud',
  confirmation: 'settings.confirmation',
  /** Set with every stored policy since the default moved to 'non-read-only' (see storedConfirmationPolicy). */
  confirmationChosen: 'settings.confirmationChosen',
  sites: 'settings.sites',
  grants: 'settings.grants',
  deviceTests: 'settings.deviceTests',
  apiKeyMask: (provider: CloudProvider) => `settings.apiKeyMask.${provider}`,
  apiKey: (provider: CloudProvider) => `secret.apiKey.${provider}`,
} as const;

/** Typed settings over storage areas. Every write validates first; a refused write throws SettingsValidationError and changes nothing. */
export interface SettingsStore extends StoredSites, StoredGrants {
  /** Everything a view shows. Never contains an API key, only its mask. Malformed stored values read as defaults. */
  read(): Promise<Settings>;
  /** Calls listener with fresh settings after any change, from any context. Returns the unsubscribe function. */
  subscribe(listener: (settings: Settings) => void): () => void;
  setMode(mode: AgentMode): Promise<void>;
  /** Errors keyed modelHost, modelId. */
  saveLocal(input: { modelId?: string; modelHost: string }): Promise<LocalPreferences>;
  /** Errors keyed provider, baseURL, model. */
  saveCloud(input: CloudPreferencesInput): Promise<CloudPreferences>;
  /** Stores a provider's key in the local area only, with its mask. Errors keyed apiKey. */
  saveApiKey(provider: CloudProvider, key: string): Promise<ApiKeyState>;
  deleteApiKey(provider: CloudProvider): Promise<void>;
  /** The provider's key itself. For the agent host only, when it calls the provider. */
  readApiKey(provider: CloudProvider): Promise<string | undefined>;
  /**
   * What the agent host needs to call the saved provider, or why it cannot yet (no key, no base URL, no model),
   * in words for the person. requireModel: false for a connection test or a model list.
   */
  cloudSettings(options?: { requireModel?: boolean }): Promise<{ ok: true; value: CloudSettings } | { ok: false; error: string }>;
  setConfirmationPolicy(policy: ConfirmationPolicy): Promise<void>;
  /** "Test this device" results, keyed by model and device (malformed entries dropped). */
  deviceTests(): Promise<DeviceTestResults>;
  /** Keeps one result, replacing the earlier one for the same model and device. */
  saveDeviceTest(result: DeviceTestResult): Promise<void>;
}

const PROVIDER_IDS = CLOUD_PROVIDERS.map((p) => p.id);

/** Creates the settings store over the given areas. */
export function createSettingsStore(areas: SettingsAreas): SettingsStore {
  const local = areas.local;
  // Read-modify-write of the lists must not interleave within this context (two quick grants would lose one).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };

  const read = async (): Promise<Settings> => {
    const keys = [
      SETTINGS_KEYS.mode,
      SETTINGS_KEYS.local,
      SETTINGS_KEYS.sites,
      SETTINGS_KEYS.grants,
      SETTINGS_KEYS.cloud,
      SETTINGS_KEYS.confirmation,
      SETTINGS_KEYS.confirmationChosen,
      ...PROVIDER_IDS.map(SETTINGS_KEYS.apiKeyMask),
    ];
    const l = await local.get(keys);
    const apiKeys = Object.fromEntries(
      PROVIDER_IDS.map((id) => {
        const mask = l[SETTINGS_KEYS.apiKeyMask(id)];
        return [id, typeof mask === 'string' ? { saved: true, masked: mask } : { saved: false }];
      }),
    ) as Record<CloudProvider, ApiKeyState>;
    return {
      mode: l[SETTINGS_KEYS.mode] === 'cloud' ? 'cloud' : 'local',
      local: sanitizeLocal(l[SETTINGS_KEYS.local]),
      cloud: sanitizeCloud(l[SETTINGS_KEYS.cloud]),
      apiKeys,
      confirmation: storedConfirmationPolicy(l[SETTINGS_KEYS.confirmation], l[SETTINGS_KEYS.confirmationChosen]),
      sites: sanitizeSites(l[SETTINGS_KEYS.sites]),
      grants: sanitizeGrants(l[SETTINGS_KEYS.grants]),
    };
  };

  const readApiKey = async (provider: CloudProvider) => {
    const value = (await local.get([SETTINGS_KEYS.apiKey(provider)]))[SETTINGS_KEYS.apiKey(provider)];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };

  return {
    read,

    subscribe(listener) {
      let stopped = false;
      const onChange = (changes: Record<string, StorageChange>) => {
        if (!Object.keys(changes).some((key) => key.startsWith('settings.'))) return;
        void read().then((settings) => {
          if (!stopped) listener(settings);
        });
      };
      local.onChanged.addListener(onChange);
      return () => {
        stopped = true;
        local.onChanged.removeListener(onChange);
      };
    },

    async setMode(mode) {
      if (mode !== 'local' && mode !== 'cloud') throw new SettingsValidationError({ mode: 'Choose On-device or Cloud.' });
      await local.set({ [SETTINGS_KEYS.mode]: mode });
    },

    async saveLocal(input) {
      const host = validateModelHost(input.modelHost);
      const modelId = input.modelId?.trim();
      const errors: Record<string, string> = {};
      if (!host.ok) errors.modelHost = host.error;
      if (modelId !== undefined && (modelId.length > 200 || /\s/.test(modelId))) {
        errors.modelId = 'A model id has no spaces, for example onnx-community/Qwen3-0.6B-ONNX.';
      }
      if (!host.ok || Object.keys(errors).length > 0) throw new SettingsValidationError(errors);
      const value: LocalPreferences = { modelHost: host.value, ...(modelId ? { modelId } : {}) };
      await local.set({ [SETTINGS_KEYS.local]: value });
      return value;
    },

    async saveCloud(input) {
      const result = validateCloudPreferences(input);
      if (!result.ok) throw new SettingsValidationError(result.errors);
      await local.set({ [SETTINGS_KEYS.cloud]: result.value });
      return result.value;
    },

    async saveApiKey(provider, key) {
      if (!PROVIDER_IDS.includes(provider)) throw new SettingsValidationError({ provider: 'Choose a provider first.' });
      const result = validateApiKey(key);
      if (!result.ok) throw new SettingsValidationError({ apiKey: result.error });
      const masked = maskApiKey(result.value);
      // Never storage.sync: it would copy the key to every device signed in to the browser.
      await local.set({ [SETTINGS_KEYS.apiKey(provider)]: result.value, [SETTINGS_KEYS.apiKeyMask(provider)]: masked });
      return { saved: true, masked };
    },

    async deleteApiKey(provider) {
      await local.remove([SETTINGS_KEYS.apiKey(provider), SETTINGS_KEYS.apiKeyMask(provider)]);
    },

    readApiKey,

    async cloudSettings(options = {}) {
      const { cloud } = await read();
      const label = CLOUD_PROVIDERS.find((p) => p.id === cloud.provider)?.label ?? cloud.provider;
      if (cloud.provider === 'openai-compatible' && !cloud.baseURL) {
        return { ok: false, error: 'The OpenAI-compatible provider has no base URL yet: add it in the Cloud section of the options page.' };
      }
      const apiKey = (await readApiKey(cloud.provider)) ?? '';
      if (apiKey === '' && cloud.provider !== 'openai-compatible') {
        return { ok: false, error: `No API key is saved for ${label}: add yours in the Cloud section of the options page.` };
      }
      if ((options.requireModel ?? true) && !cloud.model) {
        return { ok: false, error: `No ${label} model is chosen: pick one in the Cloud section of the options page.` };
      }
      return {
        ok: true,
        value: {
          provider: cloud.provider,
          ...(cloud.baseURL ? { baseURL: cloud.baseURL } : {}),
          apiKey,
          model: cloud.model ?? '',
          ...(cloud.reasoning ? { reasoning: cloud.reasoning } : {}),
          ...(cloud.openaiApi ? { openaiApi: cloud.openaiApi } : {}),
        },
      };
    },

    async setConfirmationPolicy(policy) {
      if (!CONFIRMATION_POLICIES.some((p) => p.id === policy)) {
        throw new SettingsValidationError({ confirmation: 'Choose when the agent should ask before running a tool.' });
      }
      await local.set({ [SETTINGS_KEYS.confirmation]: policy, [SETTINGS_KEYS.confirmationChosen]: true });
    },

    ...createStoredSites(local, SETTINGS_KEYS.sites, serial),
    ...createStoredGrants(local, SETTINGS_KEYS.grants, serial),

    deviceTests: async () => sanitizeDeviceTests((await local.get([SETTINGS_KEYS.deviceTests]))[SETTINGS_KEYS.deviceTests]),

    saveDeviceTest(result) {
      return serial(async () => {
        const [clean] = Object.values(sanitizeDeviceTests({ result }));
        if (!clean) throw new SettingsValidationError({ deviceTest: 'That test result is not well-formed.' });
        const results = sanitizeDeviceTests((await local.get([SETTINGS_KEYS.deviceTests]))[SETTINGS_KEYS.deviceTests]);
        await local.set({ [SETTINGS_KEYS.deviceTests]: { ...results, [deviceTestKey(clean)]: clean } });
      });
    },
  };
}

function sanitizeLocal(value: unknown): LocalPreferences {
  const v = (value ?? {}) as Partial<LocalPreferences>;
  const host = typeof v.modelHost === 'string' ? validateModelHost(v.modelHost) : undefined;
  return {
    modelHost: host?.ok ? host.value : DEFAULT_SETTINGS.local.modelHost,
    ...(typeof v.modelId === 'string' && v.modelId ? { modelId: v.modelId } : {}),
  };
}

function sanitizeCloud(value: unknown): CloudPreferences {
  const v = (value ?? {}) as Partial<CloudPreferences>;
  const provider = PROVIDER_IDS.includes(v.provider as CloudProvider) ? (v.provider as CloudProvider) : 'openai';
  return {
    provider,
    ...(typeof v.baseURL === 'string' && v.baseURL ? { baseURL: v.baseURL } : {}),
    ...(typeof v.model === 'string' && v.model ? { model: v.model } : {}),
    ...(CLOUD_REASONING_LEVELS.some((l) => l.id === v.reasoning) && v.reasoning !== 'provider-default' ? { reasoning: v.reasoning } : {}),
    ...(provider === 'openai' && v.openaiApi === 'chat' ? { openaiApi: 'chat' as const } : {}),
  };
}
