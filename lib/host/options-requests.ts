import {
  isOptionsRequest,
  type CloudModelsReply,
  type LocalModelInfo,
  type OptionsReply,
  type TestConnectionReply,
} from '../messaging/options-messages';
import type { DeviceTestResult } from '../local/measure-device';
import type { CloudSettings, SettingsStore } from '../storage/settings-store';
import { errorMessage } from '../shared/error-message';

/** What the host injects to answer the options page: the settings store and the cloud and local functions. */
export interface OptionsRequestDeps {
  /** Reads the saved provider, base URL, model and key (the key only here, in the host). */
  settings: Pick<SettingsStore, 'cloudSettings'>;
  /** lib/cloud's testConnection, with the host's fetch bound: `(s) => testConnection(s, { fetch })`. */
  testConnection: (settings: CloudSettings) => Promise<TestConnectionReply>;
  /** lib/cloud's listModels, with the host's fetch bound: `(s) => listModels(s, { fetch })`. */
  listCloudModels: (settings: CloudSettings) => Promise<CloudModelsReply>;
  /** The catalog with cached flags and sizes for this device. */
  listLocalModels: () => Promise<LocalModelInfo[]>;
  /** Deletes a model's files (unloading it first if it is in memory). */
  deleteLocalModel: (modelId: string) => Promise<void>;
  /** Deletes every conversation, stored and in memory (the host's deleteAllConversations). */
  deleteConversations: () => Promise<void>;
  /** "Test this device" for one model; rejects in words (not downloaded, busy, the engine failed). */
  testDevice: (modelId: string) => Promise<DeviceTestResult>;
  /** Keeps a device test's figures (the settings store's saveDeviceTest). */
  saveDeviceTest: (result: DeviceTestResult) => Promise<void>;
}

/**
 * Answers one options page request, or returns undefined when the message is not one (so the host's other
 * listeners can take it). Never rejects: every failure is an { ok: false, message } reply in words, and no reply
 * contains the API key.
 */
export function handleOptionsRequest(message: unknown, deps: OptionsRequestDeps): Promise<OptionsReply> | undefined {
  if (!isOptionsRequest(message)) return undefined;
  const answer = async (): Promise<OptionsReply> => {
    switch (message.type) {
      case 'options/test-connection': {
        const settings = await deps.settings.cloudSettings({ requireModel: true });
        if (!settings.ok) return { ok: false, message: settings.error };
        return redact(await deps.testConnection(settings.value), settings.value.apiKey);
      }
      case 'options/list-cloud-models': {
        const settings = await deps.settings.cloudSettings({ requireModel: false });
        if (!settings.ok) return { ok: false, message: settings.error };
        return redact(await deps.listCloudModels(settings.value), settings.value.apiKey);
      }
      case 'options/list-local-models':
        return { ok: true, models: await deps.listLocalModels() };
      case 'options/delete-local-model': {
        const known = await deps.listLocalModels();
        if (!known.some((m) => m.id === message.modelId)) {
          return { ok: false, message: `There is no on-device model called “${message.modelId}”.` };
        }
        await deps.deleteLocalModel(message.modelId);
        return { ok: true };
      }
      case 'options/delete-conversations':
        await deps.deleteConversations();
        return { ok: true };
      case 'options/test-device': {
        const known = await deps.listLocalModels();
        if (!known.some((m) => m.id === message.modelId)) {
          return { ok: false, message: `There is no on-device model called “${message.modelId}”.` };
        }
        try {
          const result = await deps.testDevice(message.modelId);
          await deps.saveDeviceTest(result);
          return { ok: true, result };
        } catch (error) {
          return { ok: false, message: `The test did not finish: ${errorMessage(error)}` };
        }
      }
    }
  };
  return answer().catch((error: unknown) => ({
    ok: false,
    message: `The agent host could not do that: ${errorMessage(error)}`,
  }));
}

/** A last guard: whatever a provider echoed back, the key never leaves the host in a reply. */
function redact<T>(value: T, apiKey: string): T {
  if (!apiKey) return value;
  if (typeof value === 'string') return value.split(apiKey).join('[your key]') as T;
  if (Array.isArray(value)) return value.map((item) => redact(item, apiKey)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, apiKey)])) as T;
  }
  return value;
}
