import { MAX_DELEGATION_DEPTH } from '../../lib/agent/select-tools';
import { MAX_INSTRUCTIONS_LENGTH, MAX_STEPS_RANGE, MAX_SUB_AGENTS } from '../../lib/storage/settings';
import { describedBy, Field } from './field';
import { NoticeText } from './notice-text';
import type { OptionsState } from './options-state';
import type { SubAgentDraft } from './site-editor-state';

/** Per-site instructions: the extension's form of a page agent (origin, About this site, max steps, tools). */
export function SitesSection({ state }: { state: OptionsState }) {
  const settings = state.settings.value;
  const editor = state.siteEditor.value;
  if (!settings) return null;
  return (
    <section class="card" aria-labelledby="sites-title">
      <h2 id="sites-title">Sites</h2>
      <p class="intro">
        Tell the agent about a site you use often: what it is, how its tools fit together, how many steps it may take, and which tools it
        may use there.
      </p>

      {settings.sites.length === 0 && !editor ? <p class="placeholder">No site has its own settings yet.</p> : null}
      <ul class="site-list">
        {settings.sites.map((site) =>
          editor?.original === site.origin ? (
            <li key={site.origin}>
              <SiteEditorForm state={state} />
            </li>
          ) : (
            <li key={site.origin} class="site">
              <div class="site-head">
                <h3>{site.origin}</h3>
                <div class="site-actions">
                  <button
                    type="button"
                    class="button button--quiet"
                    aria-label={`Edit ${site.origin}`}
                    onClick={() => state.startEditSite(site.origin)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    class="button button--quiet"
                    aria-label={`Remove ${site.origin}`}
                    onClick={() => void state.removeSite(site.origin)}
                  >
                    Remove
                  </button>
                </div>
              </div>
              {site.instructions ? <p class="site-about">{site.instructions}</p> : <p class="placeholder">No “About this site” text.</p>}
              <p class="meta">
                {site.maxSteps !== undefined ? `Up to ${site.maxSteps} steps` : 'Default number of steps'} ·{' '}
                {site.tools ? `Only ${site.tools.join(', ')}` : 'All of the site’s tools'}
              </p>
              {site.subAgents?.length ? (
                <p class="meta">
                  Sub-agents: {site.subAgents.map((sub) => `${sub.name} (${sub.tools ? sub.tools.join(', ') : 'all tools'})`).join(' · ')}
                </p>
              ) : null}
            </li>
          ),
        )}
      </ul>
      {editor && editor.original === undefined ? <SiteEditorForm state={state} /> : null}
      {!editor ? (
        <button type="button" class="button" onClick={() => state.startAddSite()}>
          Add a site
        </button>
      ) : null}
      <NoticeText notice={state.siteNotice.value} />
    </section>
  );
}

function SiteEditorForm({ state }: { state: OptionsState }) {
  const editor = state.siteEditor.value;
  if (!editor) return null;
  const { draft, errors } = editor;
  const editing = editor.original !== undefined;
  return (
    <form
      class="site-editor"
      aria-labelledby="site-editor-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void state.saveSite().then((ok) => {
          if (!ok) document.querySelector<HTMLElement>('.site-editor [aria-invalid="true"]')?.focus();
        });
      }}
    >
      <h3 id="site-editor-title">{editing ? `Edit ${editor.original}` : 'Add a site'}</h3>
      <p class="hint">
        New here?{' '}
        <button type="button" class="button button--quiet" onClick={() => state.useDemoExample()}>
          Use the demo shop’s example
        </button>{' '}
        fills this form with a profile for the demo shop: its agent browses and fills the cart, and hands checking out to a “checkout”
        sub-agent.
      </p>
      <Field id="site-origin" label="Origin" hint="Scheme, host and port, for example https://shop.example." error={errors.origin}>
        <input
          id="site-origin"
          type="url"
          inputMode="url"
          spellcheck={false}
          autoComplete="off"
          value={draft.origin}
          aria-invalid={!!errors.origin}
          aria-describedby={describedBy('site-origin', true, errors.origin)}
          onInput={(e) => state.editSite('origin', e.currentTarget.value)}
        />
      </Field>
      <Field
        id="site-about"
        label="About this site"
        hint={`What the site is and how its tools fit together, for example “To buy: search, open_product, then add_to_cart.” Up to ${MAX_INSTRUCTIONS_LENGTH} characters.`}
        error={errors.instructions}
      >
        <textarea
          id="site-about"
          rows={4}
          value={draft.instructions}
          aria-invalid={!!errors.instructions}
          aria-describedby={describedBy('site-about', true, errors.instructions)}
          onInput={(e) => state.editSite('instructions', e.currentTarget.value)}
        />
      </Field>
      <div class="grid">
        <Field
          id="site-steps"
          label="Max steps"
          hint={`${MAX_STEPS_RANGE.min} to ${MAX_STEPS_RANGE.max}; empty for the default.`}
          error={errors.maxSteps}
        >
          <input
            id="site-steps"
            type="number"
            inputMode="numeric"
            min={MAX_STEPS_RANGE.min}
            max={MAX_STEPS_RANGE.max}
            step={1}
            value={draft.maxSteps}
            aria-invalid={!!errors.maxSteps}
            aria-describedby={describedBy('site-steps', true, errors.maxSteps)}
            onInput={(e) => state.editSite('maxSteps', e.currentTarget.value)}
          />
        </Field>
        <Field id="site-tools" label="Allowed tools" hint="Tool names separated by commas; empty allows every tool." error={errors.tools}>
          <input
            id="site-tools"
            type="text"
            spellcheck={false}
            autoComplete="off"
            value={draft.tools}
            aria-invalid={!!errors.tools}
            aria-describedby={describedBy('site-tools', true, errors.tools)}
            onInput={(e) => state.editSite('tools', e.currentTarget.value)}
          />
        </Field>
      </div>
      <SubAgentsFieldset state={state} />
      <div class="form-actions">
        <button type="submit" class="button button--primary">
          {editing ? 'Update site' : 'Add site'}
        </button>
        <button type="button" class="button" onClick={() => state.cancelSite()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The site's sub-agents: smaller agents its agent hands a task to (delegate_to_<id>), each with its own
 * instructions, tools and steps. Each refusal shows under its field.
 */
function SubAgentsFieldset({ state }: { state: OptionsState }) {
  const editor = state.siteEditor.value;
  if (!editor) return null;
  const { draft, errors } = editor;
  return (
    <fieldset class="sub-agents" aria-describedby="sub-agents-hint">
      <legend>Sub-agents</legend>
      <p class="hint" id="sub-agents-hint">
        The site’s agent can hand a task (“check out”) to a sub-agent that holds only the tools for it: a small model chooses better among 3
        tools than among 30. A sub-agent may hand on to another, at most {MAX_DELEGATION_DEPTH} deep.
      </p>
      {errors.subAgents ? (
        <p class="error" role="alert">
          {errors.subAgents}
        </p>
      ) : null}
      {draft.subAgents.map((sub, index) => (
        <SubAgentForm key={index} state={state} sub={sub} index={index} errors={errors} />
      ))}
      {draft.subAgents.length < MAX_SUB_AGENTS ? (
        <button type="button" class="button" onClick={() => state.addSubAgent()}>
          Add a sub-agent
        </button>
      ) : null}
    </fieldset>
  );
}

function SubAgentForm(props: { state: OptionsState; sub: SubAgentDraft; index: number; errors: Record<string, string> }) {
  const { state, sub, index, errors } = props;
  const id = (field: string) => `sub-agent-${index}-${field}`;
  const error = (field: keyof SubAgentDraft) => errors[`subAgents.${index}.${field}`];
  const title = sub.name.trim() || `Sub-agent ${index + 1}`;
  const text = (field: keyof SubAgentDraft, label: string, hint: string, attrs: { inputMode?: 'numeric' } = {}) => (
    <Field id={id(field)} label={label} hint={hint} error={error(field)}>
      <input
        id={id(field)}
        type="text"
        spellcheck={false}
        autoComplete="off"
        {...attrs}
        value={sub[field]}
        aria-invalid={!!error(field)}
        aria-describedby={describedBy(id(field), true, error(field))}
        onInput={(e) => state.editSubAgent(index, field, e.currentTarget.value)}
      />
    </Field>
  );
  return (
    <section class="sub-agent" aria-label={title}>
      <div class="site-head">
        <h4>{title}</h4>
        <button type="button" class="button button--quiet" aria-label={`Remove ${title}`} onClick={() => state.removeSubAgent(index)}>
          Remove
        </button>
      </div>
      <div class="grid">
        {text('id', 'Id', 'Lower-case letters, digits, “_” and “-”, for example checkout. The agent sees the tool delegate_to_<id>.')}
        {text('name', 'Name', 'What you call it, for example Checkout.')}
      </div>
      <Field id={id('instructions')} label="Instructions" hint="What it does and how its tools fit together." error={error('instructions')}>
        <textarea
          id={id('instructions')}
          rows={3}
          value={sub.instructions}
          aria-invalid={!!error('instructions')}
          aria-describedby={describedBy(id('instructions'), true, error('instructions'))}
          onInput={(e) => state.editSubAgent(index, 'instructions', e.currentTarget.value)}
        />
      </Field>
      <div class="grid">
        {text('tools', 'Its tools', 'Names of the site’s tools it may use, separated by commas; empty allows every tool.')}
        {text('maxSteps', 'Max steps', `${MAX_STEPS_RANGE.min} to ${MAX_STEPS_RANGE.max}; empty for the default.`, {
          inputMode: 'numeric',
        })}
      </div>
      {text(
        'subAgents',
        'Hands tasks to',
        'Ids of this site’s other sub-agents it may hand a task to, separated by commas; usually empty.',
      )}
    </section>
  );
}
