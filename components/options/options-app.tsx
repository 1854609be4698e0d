import { AgentSection } from './agent-section';
import { CloudSection } from './cloud-section';
import { ConfirmationSection } from './confirmation-section';
import { ConversationsSection } from './conversations-section';
import { NoticeText } from './notice-text';
import { OnDeviceSection } from './on-device-section';
import type { OptionsState } from './options-state';
import { SitesSection } from './sites-section';
import type { SharingStore } from '../sharing/create-sharing-store';
import { SharingSection } from '../sharing/sharing-section';

/** The options page: every section, and the bar with the one Save button. */
export function OptionsApp({ state, sharing, pairing }: { state: OptionsState; sharing?: SharingStore; pairing?: boolean }) {
  const loadError = state.loadError.value;
  const ready = !!state.draft.value;
  return (
    <div class="page">
      <header class="page-header">
        <h1>WebMCP Agent settings</h1>
        <p>
          How the agent in the side panel works: on this device or in the cloud, when it asks you first, and what it knows about your sites.
        </p>
        <p>
          <a href="/privacy.html" target="_blank" rel="noopener">
            Privacy policy
          </a>
          : what leaves your browser in each mode, and what is kept for how long.
        </p>
      </header>
      <main>
        {loadError ? (
          <p class="problem" role="alert">
            {loadError}
          </p>
        ) : !ready ? (
          <p class="placeholder">Loading your settings…</p>
        ) : (
          <form
            id="settings-form"
            class="settings-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void state.save().then((ok) => {
                if (!ok) document.querySelector<HTMLElement>('.settings-form [aria-invalid="true"]')?.focus();
              });
            }}
          >
            <AgentSection state={state} />
            <OnDeviceSection state={state} />
            <CloudSection state={state} />
            <ConfirmationSection state={state} />
          </form>
        )}
        {ready ? <SitesSection state={state} /> : null}
        {ready ? <ConversationsSection state={state} /> : null}
        {ready && sharing ? <SharingSection sharing={sharing} pairing={pairing} /> : null}
        {ready ? (
          // Outside the form so it can stay in view at the bottom of the page; form= ties Save to it.
          <div class={`save-bar${state.dirty.value ? ' save-bar--dirty' : ''}`}>
            <NoticeText
              notice={state.notice.value ?? (state.dirty.value ? { tone: 'info', text: 'You have unsaved changes.' } : undefined)}
              class="save-notice"
            />
            {state.dirty.value ? (
              <button type="button" class="button" onClick={() => state.revert()}>
                Discard changes
              </button>
            ) : null}
            <button type="submit" form="settings-form" class="button button--primary" disabled={state.saving.value}>
              Save
            </button>
          </div>
        ) : null}
      </main>
    </div>
  );
}
