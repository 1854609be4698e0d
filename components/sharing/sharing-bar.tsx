import type { ConfirmationAnswer, TabSnapshot } from '../../lib/messaging/agent-messages';
import { hostOf } from '../../lib/shared/host-of';
import { ConfirmActions } from '../shared/confirm-actions';
import { QuestionArguments, type SecretReveal } from '../shared/question-arguments';
import type { SharingStore } from './create-sharing-store';

interface SharingBarProps {
  sharing: SharingStore;
  /** The panel's tab, for the questions desktop agents' calls wait on. */
  tab: TabSnapshot | undefined;
  onConfirm: (confirmationId: string, answer: ConfirmationAnswer) => void;
  /** Reveals a question's masked secret arguments, on the person's click. */
  reveal?: SecretReveal;
}

/**
 * The side panel's part of the bridge to desktop agents, shown once the person turned sharing on (options page):
 * share this tab's site (or only this tab), which desktop agents are connected and what they can reach, with a
 * "Stop sharing" for each, and the questions their calls wait on. Every name here (sites, tab titles, the agents'
 * own names) is shown as text.
 */
export function SharingBar({ sharing, tab, onConfirm, reveal }: SharingBarProps) {
  const state = sharing.state.value;
  const asked = (tab?.confirmations ?? []).filter((c) => c.requester !== undefined);
  if (!state?.enabled && asked.length === 0) return null;
  const here = state?.tab;
  const reachable = [
    ...(state?.sites ?? []).map((site) => ({ key: site, label: hostOf(site), stop: { site } })),
    ...(state?.tabs ?? []).map((t) => ({
      key: `tab-${t.tabId}`,
      label: `${hostOf(t.site)}, only the tab “${t.title ?? 'untitled'}”`,
      stop: { tabId: t.tabId },
    })),
  ];
  return (
    <section class="sharing" aria-label="Desktop agents">
      {state?.link.state === 'failed' && (
        <p class="sharing-error" role="alert">
          Desktop agents cannot connect: {state.link.error}
        </p>
      )}
      {state?.enabled && here?.site && /^https?:/.test(here.site) && (
        <p class="sharing-here">
          {here.shared ? (
            <>
              {here.shared === 'tab' ? `This tab (${hostOf(here.site)}) is shared` : `${hostOf(here.site)} is shared`} with desktop agents.{' '}
              <button type="button" onClick={() => sharing.stop(here.shared === 'tab' ? { tabId: here.tabId } : { site: here.site })}>
                Stop sharing
              </button>
            </>
          ) : (
            <>
              Let desktop agents use {hostOf(here.site)}’s tools?{' '}
              <button type="button" onClick={() => sharing.share(here.tabId, 'site')}>
                Share this site
              </button>{' '}
              <button type="button" onClick={() => sharing.share(here.tabId, 'tab')}>
                Only this tab
              </button>
            </>
          )}
        </p>
      )}
      {state?.enabled && (state.clients.length > 0 || reachable.length > 0) && (
        <div class="sharing-clients">
          <p>
            {state.clients.length > 0
              ? `Connected: ${state.clients.map((c) => (c.version ? `${c.name} ${c.version}` : c.name)).join(', ')}.`
              : 'No desktop agent is connected.'}{' '}
            {reachable.length > 0 ? 'They can reach:' : 'No site is shared.'}
          </p>
          {reachable.length > 0 && (
            <ul aria-label="Shared with desktop agents">
              {reachable.map((r) => (
                <li key={r.key}>
                  <span>{r.label}</span>{' '}
                  <button type="button" class="link" onClick={() => sharing.stop(r.stop)}>
                    Stop sharing
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {asked.map((c) => (
        <fieldset key={c.id} class="confirm sharing-question">
          <legend>{c.prompt}</legend>
          <QuestionArguments confirmation={c} toolName={c.toolName} {...(reveal ? { reveal } : {})} />
          <ConfirmActions confirmation={c} onConfirm={onConfirm} />
        </fieldset>
      ))}
    </section>
  );
}
