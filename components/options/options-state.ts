import { batch, computed, type ReadonlySignal, signal } from '@preact/signals';
import type { CloudModelInfo, LocalModelInfo } from '../../lib/messaging/options-messages';
import type { OptionsClient } from '../../lib/messaging/options-client';
import { DEMO_SITE_PROFILE } from '../../lib/storage/demo-site-profile';
import type {
  AgentMode,
  CloudProvider,
  CloudReasoning,
  ConfirmationPolicy,
  OpenAIApi,
  Settings,
  SiteProfile,
} from '../../lib/storage/settings';
import type { SettingsStore } from '../../lib/storage/settings-store';
import { SettingsValidationError } from '../../lib/storage/settings-validation-error';
import {
  type SiteProfileInput,
  validateApiKey,
  validateCloudPreferences,
  validateModelHost,
  validateSiteProfile,
} from '../../lib/storage/validate-settings';

/** The page-wide form: everything the one Save button writes. Text as typed. */
export interface OptionsDraft {
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

/** A message for the person, and whether it reports a problem. */
export interface Notice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

/** A device test running, or the last one that failed. */
export type DeviceTestState = { modelId: string; state: 'testing' } | { modelId: string; state: 'failed'; message: string };

/** The site profile being added or edited. */
export interface SiteEditor {
  /** The origin the profile had before editing; undefined when adding. */
  original?: string;
  draft: { origin: string; instructions: string; maxSteps: string; tools: string; subAgents: SubAgentDraft[] };
  errors: Record<string, string>;
}

/** A sub-agent as its form holds it; errors are keyed `subAgents.<index>.<field>`. */
export interface SubAgentDraft {
  id: string;
  name: string;
  instructions: string;
  maxSteps: string;
  tools: string;
  /** Ids of the site's other sub-agents it may hand tasks to, separated by commas. */
  subAgents: string;
}

type Loadable<T> = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };

/** The options page's state and actions, outside the views (which only read signals and call actions). */
export interface OptionsState {
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
  /** Test connection: running, or its last result. */
  connection: ReadonlySignal<{ state: 'idle' } | { state: 'testing' } | { state: 'done'; ok: boolean; message: string }>;
  cloudModels: ReadonlySignal<Loadable<CloudModelInfo[]>>;
  localModels: ReadonlySignal<Loadable<LocalModelInfo[]>>;
  /** The model whose Delete waits for a second click. */
  pendingDelete: ReadonlySignal<string | undefined>;
  /** A message about the on-device models (deleted, or why not). */
  localNotice: ReadonlySignal<Notice | undefined>;
  /** "Test this device": the model being tested, or the last test that failed and why. */
  deviceTest: ReadonlySignal<DeviceTestState | undefined>;
  siteEditor: ReadonlySignal<SiteEditor | undefined>;
  siteNotice: ReadonlySignal<Notice | undefined>;
  /** "Delete all conversations": idle, waiting for the second click, or deleting. */
  conversationsDelete: ReadonlySignal<'idle' | 'confirming' | 'deleting'>;
  /** What became of the last "Delete all conversations". */
  conversationsNotice: ReadonlySignal<Notice | undefined>;

  /** Reads the settings and starts following changes; lists the models. Returns a function that stops following. */
  start(): Promise<() => void>;
  edit<K extends keyof OptionsDraft>(field: K, value: OptionsDraft[K]): void;
  /** Validates every field, then writes everything; nothing is written when a field is refused. */
  save(): Promise<boolean>;
  /** Resets the draft to the saved settings. */
  revert(): void;
  deleteApiKey(): Promise<void>;
  /** Saves unsaved changes first, then asks the host to make one cheap request. */
  testConnection(): Promise<void>;
  refreshCloudModels(): Promise<void>;
  refreshLocalModels(): Promise<void>;
  /** First call asks for confirmation; confirmDelete does it. */
  requestDelete(modelId: string): void;
  cancelDelete(): void;
  confirmDelete(): Promise<void>;
  /** Runs "Test this device" for a downloaded model (one at a time); its figures then show with the model. */
  testDevice(modelId: string): Promise<void>;
  startAddSite(): void;
  startEditSite(origin: string): void;
  editSite(field: Exclude<keyof SiteEditor['draft'], 'subAgents'>, value: string): void;
  addSubAgent(): void;
  removeSubAgent(index: number): void;
  editSubAgent(index: number, field: keyof SubAgentDraft, value: string): void;
  /** Fills the editor with the demo shop's example (a "checkout" sub-agent), keeping an origin already typed. */
  useDemoExample(): void;
  cancelSite(): void;
  saveSite(): Promise<boolean>;
  removeSite(origin: string): Promise<void>;
  revokeGrant(origin: string, tool: string): Promise<void>;
  /** First call asks for confirmation; confirmDeleteConversations does it. */
  requestDeleteConversations(): void;
  cancelDeleteConversations(): void;
  /** Asks the host to delete every conversation, stored and shown in open panels. */
  confirmDeleteConversations(): Promise<void>;
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
  return (Object.keys(a) as (keyof OptionsDraft)[]).every((k) => (typeof a[k] === 'string' ? (a[k] as string).trim() : a[k]) === (typeof b[k] === 'string' ? (b[k] as string).trim() : b[k]));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Creates the state over the settings store (storage) and the client (agent host). */
export function createOptionsState(deps: { store: SettingsStore; client: OptionsClient }): OptionsState {
  const { store, client } = deps;
  const settings = signal<Settings | undefined>(undefined);
  const loadError = signal<string | undefined>(undefined);
  const draft = signal<OptionsDraft | undefined>(undefined);
  const errors = signal<Record<string, string>>({});
  const saving = signal(false);
  const notice = signal<Notice | undefined>(undefined);
  const connection = signal<{ state: 'idle' } | { state: 'testing' } | { state: 'done'; ok: boolean; message: string }>({ state: 'idle' });
  const cloudModels = signal<Loadable<CloudModelInfo[]>>({ state: 'idle' });
  const localModels = signal<Loadable<LocalModelInfo[]>>({ state: 'idle' });
  const pendingDelete = signal<string | undefined>(undefined);
  const localNotice = signal<Notice | undefined>(undefined);
  const deviceTest = signal<DeviceTestState | undefined>(undefined);
  const siteEditor = signal<SiteEditor | undefined>(undefined);
  const siteNotice = signal<Notice | undefined>(undefined);
  const conversationsDelete = signal<'idle' | 'confirming' | 'deleting'>('idle');
  const conversationsNotice = signal<Notice | undefined>(undefined);

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

  /** Whether the saved cloud settings let the host ask for a model list. */
  const canListCloudModels = (s: Settings) =>
    s.cloud.provider === 'openai-compatible' ? !!s.cloud.baseURL : s.apiKeys[s.cloud.provider].saved;

  const refreshCloudModels = async () => {
    const s = settings.value;
    if (!s || !canListCloudModels(s)) {
      cloudModels.value = { state: 'idle' };
      return;
    }
    cloudModels.value = { state: 'loading' };
    const reply = await client.listCloudModels();
    cloudModels.value = reply.ok ? { state: 'ready', value: reply.models } : { state: 'error', message: reply.message };
  };

  const refreshLocalModels = async () => {
    if (localModels.value.state !== 'ready') localModels.value = { state: 'loading' };
    const reply = await client.listLocalModels();
    localModels.value = reply.ok ? { state: 'ready', value: reply.models } : { state: 'error', message: reply.message };
  };

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
        notice.value = { tone: 'error', text: n === 1 ? 'Not saved: fix the field marked below.' : `Not saved: fix the ${n} fields marked below.` };
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
        notice.value = { tone: 'error', text: `Not saved: ${messageOf(error)}` };
      });
      return false;
    } finally {
      saving.value = false;
    }
  };

  return {
    settings,
    loadError,
    draft,
    errors,
    dirty,
    saving,
    notice,
    connection,
    cloudModels,
    localModels,
    pendingDelete,
    localNotice,
    deviceTest,
    siteEditor,
    siteNotice,
    conversationsDelete,
    conversationsNotice,

    requestDeleteConversations() {
      batch(() => {
        conversationsDelete.value = 'confirming';
        conversationsNotice.value = undefined;
      });
    },

    cancelDeleteConversations() {
      if (conversationsDelete.value === 'confirming') conversationsDelete.value = 'idle';
    },

    async confirmDeleteConversations() {
      if (conversationsDelete.value !== 'confirming') return;
      batch(() => {
        conversationsDelete.value = 'deleting';
        conversationsNotice.value = { tone: 'info', text: 'Deleting…' };
      });
      const reply = await client.deleteConversations();
      batch(() => {
        conversationsDelete.value = 'idle';
        conversationsNotice.value = reply.ok
          ? { tone: 'success', text: 'All conversations were deleted, here and in open side panels.' }
          : { tone: 'error', text: `The conversations were not deleted: ${reply.message}` };
      });
    },

    async start() {
      const stop = store.subscribe(receive);
      try {
        receive(await store.read());
      } catch (error) {
        loadError.value = `The settings could not be read: ${messageOf(error)}`;
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
        if (field === 'provider' || field === 'baseURL' || field === 'apiKey' || field === 'openaiApi') connection.value = { state: 'idle' };
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
        notice.value = { tone: 'error', text: `The key could not be deleted: ${messageOf(error)}` };
      }
    },

    async testConnection() {
      if (connection.value.state === 'testing') return;
      if (dirty.value && !(await save())) {
        connection.value = { state: 'done', ok: false, message: 'Not tested: fix the fields marked above, then try again.' };
        return;
      }
      connection.value = { state: 'testing' };
      const reply = await client.testConnection();
      connection.value = { state: 'done', ok: reply.ok, message: reply.message };
    },

    refreshCloudModels,
    refreshLocalModels,

    requestDelete(modelId) {
      batch(() => {
        pendingDelete.value = modelId;
        localNotice.value = undefined;
      });
    },

    cancelDelete() {
      pendingDelete.value = undefined;
    },

    async confirmDelete() {
      const id = pendingDelete.value;
      if (!id) return;
      const model = localModels.value.state === 'ready' ? localModels.value.value.find((m) => m.id === id) : undefined;
      const name = model?.label ?? id;
      const reply = await client.deleteLocalModel(id);
      batch(() => {
        pendingDelete.value = undefined;
        localNotice.value = reply.ok
          ? { tone: 'success', text: `${name} was deleted from this device.` }
          : { tone: 'error', text: `${name} was not deleted: ${reply.message}` };
      });
      await refreshLocalModels();
    },

    async testDevice(modelId) {
      if (deviceTest.value?.state === 'testing') return;
      deviceTest.value = { modelId, state: 'testing' };
      const reply = await client.testDevice(modelId);
      // The figures come back with the model list (kept by the host), so the page shows what is stored.
      if (reply.ok) await refreshLocalModels();
      deviceTest.value = reply.ok ? undefined : { modelId, state: 'failed', message: reply.message };
    },

    startAddSite() {
      batch(() => {
        siteEditor.value = { draft: { origin: '', instructions: '', maxSteps: '', tools: '', subAgents: [] }, errors: {} };
        siteNotice.value = undefined;
      });
    },

    startEditSite(origin) {
      const profile = settings.value?.sites.find((s) => s.origin === origin);
      if (!profile) return;
      batch(() => {
        siteEditor.value = { original: origin, draft: siteDraft(profile), errors: {} };
        siteNotice.value = undefined;
      });
    },

    editSite(field, value) {
      const editor = siteEditor.value;
      if (!editor) return;
      const { [field]: _fixed, ...rest } = editor.errors;
      siteEditor.value = { ...editor, draft: { ...editor.draft, [field]: value }, errors: rest };
    },

    addSubAgent() {
      const editor = siteEditor.value;
      if (!editor) return;
      const empty: SubAgentDraft = { id: '', name: '', instructions: '', maxSteps: '', tools: '', subAgents: '' };
      siteEditor.value = { ...editor, draft: { ...editor.draft, subAgents: [...editor.draft.subAgents, empty] } };
    },

    removeSubAgent(index) {
      const editor = siteEditor.value;
      if (!editor) return;
      // The messages of the sub-agents after it would point at the wrong ones: they come back on the next Save.
      const errors = Object.fromEntries(Object.entries(editor.errors).filter(([key]) => !key.startsWith('subAgents')));
      siteEditor.value = { ...editor, draft: { ...editor.draft, subAgents: editor.draft.subAgents.filter((_, i) => i !== index) }, errors };
    },

    editSubAgent(index, field, value) {
      const editor = siteEditor.value;
      if (!editor?.draft.subAgents[index]) return;
      const { [`subAgents.${index}.${field}`]: _fixed, ...rest } = editor.errors;
      const subAgents = editor.draft.subAgents.map((sub, i) => (i === index ? { ...sub, [field]: value } : sub));
      siteEditor.value = { ...editor, draft: { ...editor.draft, subAgents }, errors: rest };
    },

    useDemoExample() {
      const editor = siteEditor.value;
      if (!editor) return;
      const example = siteDraft(DEMO_SITE_PROFILE);
      siteEditor.value = { ...editor, draft: { ...example, origin: editor.draft.origin.trim() || example.origin }, errors: {} };
    },

    cancelSite() {
      siteEditor.value = undefined;
    },

    async saveSite() {
      const editor = siteEditor.value;
      if (!editor) return false;
      const input: SiteProfileInput = editor.draft;
      const checked = validateSiteProfile(input);
      if (!checked.ok) {
        siteEditor.value = { ...editor, errors: checked.errors };
        return false;
      }
      try {
        const saved = await store.saveSiteProfile(input, editor.original);
        receive(await store.read());
        batch(() => {
          siteEditor.value = undefined;
          siteNotice.value = { tone: 'success', text: editor.original ? `Updated ${saved.origin}.` : `Added ${saved.origin}.` };
        });
        return true;
      } catch (error) {
        siteEditor.value = {
          ...editor,
          errors: error instanceof SettingsValidationError ? error.errors : { origin: messageOf(error) },
        };
        return false;
      }
    },

    async removeSite(origin) {
      try {
        await store.removeSiteProfile(origin);
        receive(await store.read());
        batch(() => {
          if (siteEditor.value?.original === origin) siteEditor.value = undefined;
          siteNotice.value = { tone: 'success', text: `Removed ${origin}.` };
        });
      } catch (error) {
        siteNotice.value = { tone: 'error', text: `${origin} was not removed: ${messageOf(error)}` };
      }
    },

    async revokeGrant(origin, tool) {
      await store.revokeGrant(origin, tool);
      receive(await store.read());
    },
  };
}

function siteDraft(profile: SiteProfile): SiteEditor['draft'] {
  return {
    origin: profile.origin,
    instructions: profile.instructions,
    maxSteps: profile.maxSteps === undefined ? '' : String(profile.maxSteps),
    tools: (profile.tools ?? []).join(', '),
    subAgents: (profile.subAgents ?? []).map((sub) => ({
      id: sub.id,
      name: sub.name,
      instructions: sub.instructions,
      maxSteps: sub.maxSteps === undefined ? '' : String(sub.maxSteps),
      tools: (sub.tools ?? []).join(', '),
      subAgents: (sub.subAgents ?? []).join(', '),
    })),
  };
}
