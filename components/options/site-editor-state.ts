import { batch, type ReadonlySignal, signal } from '@preact/signals';
import { DEMO_SITE_PROFILE } from '../../lib/storage/demo-site-profile';
import type { GrantCaller } from '../../lib/storage/grant-caller';
import type { Settings, SiteProfile } from '../../lib/storage/settings';
import type { SettingsStore } from '../../lib/storage/settings-store';
import { SettingsValidationError } from '../../lib/storage/settings-validation-error';
import { type SiteProfileInput, validateSiteProfile } from '../../lib/storage/validate-settings';
import { errorMessage } from '../../lib/shared/error-message';
import type { Notice } from './notice';

/** The site profile being added or edited. */
interface SiteEditor {
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

/** The site profiles' editor (add, edit, remove, sub-agents, the demo example) and the grants kept per site. */
export interface SiteEditorState {
  siteEditor: ReadonlySignal<SiteEditor | undefined>;
  siteNotice: ReadonlySignal<Notice | undefined>;
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
  /** Revokes one caller's grant of a tool on a site; the other callers' grants of it stay. */
  revokeGrant(origin: string, tool: string, caller: GrantCaller): Promise<void>;
}

/**
 * Creates the site editor over the settings store. `settings` is what is saved; `receive` hands the store's fresh
 * settings back to the page after a write.
 */
export function createSiteEditorState(deps: {
  store: SettingsStore;
  settings: ReadonlySignal<Settings | undefined>;
  receive: (next: Settings) => void;
}): SiteEditorState {
  const { store, settings, receive } = deps;
  const siteEditor = signal<SiteEditor | undefined>(undefined);
  const siteNotice = signal<Notice | undefined>(undefined);

  return {
    siteEditor,
    siteNotice,

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
          errors: error instanceof SettingsValidationError ? error.errors : { origin: errorMessage(error) },
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
        siteNotice.value = { tone: 'error', text: `${origin} was not removed: ${errorMessage(error)}` };
      }
    },

    async revokeGrant(origin, tool, caller) {
      await store.revokeGrant(origin, tool, caller);
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
