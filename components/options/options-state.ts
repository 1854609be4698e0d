import { batch, computed, type ReadonlySignal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';
import { errorMessage } from '../../lib/shared/error-message';
import type { AgentMode, CloudProvider, CloudReasoning, ConfirmationPolicy, OpenAIApi, Settings } from '../../lib/storage/settings';
import type { SettingsStore } from '../../lib/storage/settings-store';
import { SettingsValidationError } from '../../lib/storage/settings-validation-error';
import { validateApiKey, validateCloudPreferences, validateModelHost } from '../../lib/storage/validate-settings';
import { type CloudModelsState, createCloudModelsState } from './cloud-models-state';
import { type ConnectionTestState, createConnectionTestState } from './connection-test-state';
import { type ConversationsDeleteState, createConversationsDeleteState } from './conversations-delete-state';
import { createDeviceTestState, type DeviceTestFlow } from './device-test-state';
import { createLocalModelsState, type LocalModelsState } from './local-models-state';
import type { Notice } from './notice';
import { createSiteEditorState, type SiteEditorState } from './site-editor-state';

/** The page-wide form: everything the one Save button writes. Text as typed. */
interface OptionsDraft {
  mode: AgentMode;
  localModelId: string;
  modelHost: string;
  provider: CloudProvider;
  baseURL: string;
  model: string;
  reasoning: CloudReasoning;
  openaiApi: OpenAIApi;
  /** A newly pasted key; empty keeps the saved one. Cleared as soon as it is saved. */
  apiKey: string;
  confirmation: ConfirmationPolicy;
}

/** The options page's state and actions, outside the views (which only read signals and call actions). */
export interface OptionsState
  extends CloudModelsState,
    ConnectionTestState,
    ConversationsDeleteState,
    DeviceTestFlow,
    LocalModelsState,
    SiteEditorState {
  settings: ReadonlySignal<Settings | undefined>;
  loadError: ReadonlySignal<string | undefined>;
  draft: ReadonlySignal<OptionsDraft | undefined>;
  /** Field name → message, from the last Save. */
  errors: ReadonlySignal<Record<string, string>>;
  /** The draft differs from what is saved. */
  dirty: ReadonlySignal<boolean>;
  saving: ReadonlySignal<boolean>;
  /** The Save bar's message. */
  notice: ReadonlySignal<Notice | undefined>;

  /** Reads the settings and starts following changes; lists the models. Returns a function that stops following. */
  start(): Promise<() => void>;
  edit<K extends keyof OptionsDraft>(field: K, value: OptionsDraft[K]): void;
  /** Validates every field, then writes everything; nothing is written when a field is refused. */
  save(): Promise<boolean>;
  /** Resets the draft to the saved settings. */
  revert(): void;
  deleteApiKey(): Promise<void>;
}

function draftFrom(settings: Settings): OptionsDraft {
  return {
    mode: settings.mode,
    localModelId: settings.local.modelId ?? '',
    modelHost: settings.local.modelHost,
    provider: settings.cloud.provider,
    baseURL: settings.cloud.baseURL ?? '',
    model: settings.cloud.model ?? '',
    reasoning: settings.cloud.reasoning ?? 'provider-default',
    openaiApi: settings.cloud.openaiApi ?? 'responses',
    apiKey: '',
    confirmation: settings.confirmation,
  };
}

function sameDraft(a: OptionsDraft, b: OptionsDraft): boolean {
  return (Object.keys(a) as (keyof OptionsDraft)[]).every(
    (k) => (typeof a[k] === 'string' ? (a[k] as string).trim() : a[k]) === (typeof b[k] === 'string' ? (b[k] as string).trim() : b[k]),
  );
}

/** Creates the state over the settings store (storage) and the client (agent host). */
export function createOptionsState(deps: { store: SettingsStore; client: OptionsClient }): OptionsState {
  const { store, client } = deps;
  const settings = signal<Settings | undefined>(undefined);
  const loadError = signal<string | undefined>(undefined);
  const draft = signal<OptionsDraft | undefined>(undefined);
  const errors = signal<Record<string, string>>({});
  const saving = signal(false);
  const notice = signal<Notice | undefined>(undefined);

  const dirty = computed(() => {
    const s = settings.value;
    const d = draft.value;
    return !!s && !!d && !sameDraft(d, draftFrom(s));
  });

  /** Takes fresh settings; the draft follows them unless the person is in the middle of editing. */
  const receive = (next: Settings) => {
    batch(() => {
      const wasDirty = dirty.value;
      settings.value = next;
      if (!draft.value || !wasDirty) draft.value = draftFrom(next);
    });
  };

  const cloudList = createCloudModelsState(client, settings);
  const { cloudModels, refreshCloudModels } = cloudList;
  const localList = createLocalModelsState(client);
  const { refreshLocalModels } = localList;

  const save = async (): Promise<boolean> => {
    const d = draft.value;
    if (!d || saving.value) return false;
    // Validate everything before writing anything: a refused field must not leave half the form saved.
    const found: Record<string, string> = {};
    const host = validateModelHost(d.modelHost);
    if (!host.ok) found.modelHost = host.error;
    const cloudInput = { provider: d.provider, baseURL: d.baseURL, model: d.model, reasoning: d.reasoning, openaiApi: d.openaiApi };
    const cloud = validateCloudPreferences(cloudInput);
    if (!cloud.ok) Object.assign(found, cloud.errors);
    const key = d.apiKey.trim() === '' ? undefined : validateApiKey(d.apiKey);
    if (key && !key.ok) found.apiKey = key.error;
    if (Object.keys(found).length > 0) {
      batch(() => {
        errors.value = found;
        const n = Object.keys(found).length;
        notice.value = {
          tone: 'error',
          text: n === 1 ? 'Not saved: fix the field marked below.' : `Not saved: fix the ${n} fields marked below.`,
        };
      });
      return false;
    }
    batch(() => {
      saving.value = true;
      errors.value = {};
      notice.value = { tone: 'info', text: 'Saving…' };
    });
    const previousProvider = settings.value?.cloud.provider;
    try {
      await store.setMode(d.mode);
      await store.saveLocal({ modelHost: d.modelHost, ...(d.localModelId ? { modelId: d.localModelId } : {}) });
      await store.saveCloud(cloudInput);
      if (key?.ok) await store.saveApiKey(d.provider, key.value);
      await store.setConfirmationPolicy(d.confirmation);
      const next = await store.read();
      batch(() => {
        settings.value = next;
        draft.value = draftFrom(next);
        notice.value = { tone: 'success', text: 'Saved.' };
      });
      if (key?.ok || previousProvider !== next.cloud.provider || cloudModels.value.state !== 'ready') void refreshCloudModels();
      return true;
    } catch (error) {
      batch(() => {
        if (error instanceof SettingsValidationError) errors.value = error.errors;
        notice.value = { tone: 'error', text: `Not saved: ${errorMessage(error)}` };
      });
      return false;
    } finally {
      saving.value = false;
    }
  };

  const connectionTest = createConnectionTestState(client, { dirty, save });
  const { connection } = connectionTest;

  return {
    settings,
    loadError,
    draft,
    errors,
    dirty,
    saving,
    notice,
    ...cloudList,
    ...localList,
    ...connectionTest,
    ...createDeviceTestState(client, refreshLocalModels),
    ...createConversationsDeleteState(client),
    ...createSiteEditorState({ store, settings, receive }),

    async start() {
      const stop = store.subscribe(receive);
      try {
        receive(await store.read());
      } catch (error) {
        loadError.value = `The settings could not be read: ${errorMessage(error)}`;
      }
      void refreshLocalModels();
      void refreshCloudModels();
      return stop;
    },

    edit(field, value) {
      const d = draft.value;
      if (!d) return;
      batch(() => {
        draft.value = { ...d, [field]: value };
        if (errors.value[field]) {
          const { [field]: _fixed, ...rest } = errors.value;
          errors.value = rest;
        }
        if (notice.value?.tone !== 'info') notice.value = undefined;
        if (field === 'provider' || field === 'baseURL' || field === 'apiKey' || field === 'openaiApi')
          connection.value = { state: 'idle' };
      });
    },

    save,

    revert() {
      const s = settings.value;
      if (!s) return;
      batch(() => {
        draft.value = draftFrom(s);
        errors.value = {};
        notice.value = undefined;
      });
    },

    async deleteApiKey() {
      const d = draft.value;
      if (!d) return;
      // The key shown (and deleted) is the one of the provider chosen in the form.
      const provider = d.provider;
      try {
        await store.deleteApiKey(provider);
        receive(await store.read());
        batch(() => {
          notice.value = { tone: 'success', text: 'API key deleted from this browser.' };
          connection.value = { state: 'idle' };
        });
        void refreshCloudModels();
      } catch (error) {
        notice.value = { tone: 'error', text: `The key could not be deleted: ${errorMessage(error)}` };
      }
    },
  };
}
