import { computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { AgentMessage } from '../../lib/agent/types';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { AdapterSummary, HostEvent } from '../../lib/messaging/agent-messages';
import { siteMovedBeforeSend } from '../../lib/shared/site-moved-before-send';
import { webOriginOf } from '../../lib/shared/web-origin-of';
import type { TabLink } from './create-tab-slice';

/** Why a message was not taken: nobody knows which site the tab shows, so there is no site it could go to. */
const NO_SITE_TO_SEND_TO =
  'The agent cannot tell which site this tab shows (it may be a browser page, or still loading), so your message was not sent.';

/** The conversation on the tab: the composer's text, a message waiting to go, and the person's intents. */
export interface ConversationSlice {
  /** The composer's text: it lives here so switching views or tabs does not lose it. */
  draft: Signal<string>;
  /** Whether Send may be pressed now (a message sent while the panel still connects waits, see `waiting`). */
  canSend: ReadonlySignal<boolean>;
  /**
   * A message the person sent while the panel was still connecting to its agent host, or the agent was still
   * starting: it goes out as soon as they are ready, and comes back to the message box if the agent cannot run.
   */
  waiting: ReadonlySignal<string | undefined>;
  /** Sends the draft; true when it went or waits to go (the draft is then cleared). */
  send(): boolean;
  stop(): void;
  retry(): void;
  /** Clears the conversation; `seed` starts the new one with earlier turns. */
  newChat(seed?: AgentMessage[]): void;
}

/**
 * Creates the conversation slice over the tab slice and the chosen adapter. `receive` puts back a message the host
 * refused; `leave` brings a waiting message back to the box before the panel follows another tab.
 */
export function createConversationSlice(
  client: AgentClient,
  tabs: TabLink,
  adapter: ReadonlySignal<AdapterSummary | undefined>,
): ConversationSlice & { receive(event: HostEvent): void; leave(): void } {
  const { tabId, tab, connected, notice, tabUrl, hostSite } = tabs;
  const draft = signal('');
  /** Whether a message could go to the host right now. */
  const ready = computed(() => connected.value && tab.value !== undefined && !tab.value.running && adapter.value?.status.state === 'ready');
  /**
   * Still getting ready, and nothing says it will not be: the panel connects, the tab's snapshot or the adapters
   * have not arrived, or the chosen adapter loads. A message sent now waits instead of being dropped.
   */
  const gettingReady = computed(
    () =>
      !connected.value ||
      tab.value === undefined ||
      adapter.value === undefined ||
      (!tab.value.running && adapter.value.status.state === 'loading'),
  );
  const waiting = signal<string | undefined>(undefined);
  /** The site the waiting message was typed on: it goes to that site or nowhere (docs/security.md). */
  let waitingSite: string | undefined;
  /**
   * The site the person types on: the one the browser gives for the tab, else the one the host knows; undefined
   * when neither is known (the message then is not taken: a site not known is no site to send to).
   */
  const typingSite = () => (tabUrl.value !== undefined ? webOriginOf(tabUrl.value) : hostSite.value);
  /** Puts a message that did not go back in the box, keeping whatever the person typed since. */
  const restore = (text: string) => {
    draft.value = draft.value.trim() === '' ? text : `${text}\n\n${draft.value}`;
  };
  const sendBack = (text: string, now: string | undefined) => {
    waiting.value = undefined;
    restore(text);
    notice.value = siteMovedBeforeSend(now);
  };
  const canSend = computed(() => draft.value.trim().length > 0 && waiting.value === undefined && (ready.value || gettingReady.value));
  /**
   * The waiting message goes out once everything is ready and the host knows the tab shows the site it was typed
   * on; it comes back to the box with a note as soon as the browser or the host says the tab shows another site
   * (or a page of no site), and without one when the agent cannot run. Every comparison fails closed: a site not
   * known yet is never the site the message was typed on.
   */
  effect(() => {
    const text = waiting.value;
    const id = tabId.value;
    if (text === undefined || id === undefined) return;
    const site = waitingSite;
    if (tabUrl.value !== undefined && webOriginOf(tabUrl.value) !== site) return sendBack(text, webOriginOf(tabUrl.value));
    if (ready.value) {
      const now = hostSite.value;
      // The host does not know the tab's site yet: the message waits for its next snapshot.
      if (now === undefined) return;
      if (site === undefined || now !== site) return sendBack(text, now);
      waiting.value = undefined;
      client.send({ type: 'panel/send', tabId: id, text, site });
    } else if (!gettingReady.value) {
      waiting.value = undefined;
      if (draft.value.trim() === '') draft.value = text;
    }
  });

  return {
    draft,
    canSend,
    waiting,
    receive(event) {
      if (event.type !== 'panel/notice' || event.draft === undefined) return;
      if (event.tabId === undefined || event.tabId === tabId.value) restore(event.draft);
    },
    leave() {
      // A message waiting for the old tab never goes to the new one: it comes back to the box.
      if (waiting.value !== undefined) {
        if (draft.value.trim() === '') draft.value = waiting.value;
        waiting.value = undefined;
      }
    },
    send() {
      if (!canSend.value || tabId.value === undefined) return false;
      const site = typingSite();
      if (site === undefined) {
        notice.value = NO_SITE_TO_SEND_TO;
        return false;
      }
      const text = draft.value;
      draft.value = '';
      notice.value = undefined;
      // Straight out when the host knows the tab shows this site; otherwise it waits for that (the effect above).
      if (ready.value && hostSite.value === site) client.send({ type: 'panel/send', tabId: tabId.value, text, site });
      else {
        waitingSite = site;
        waiting.value = text;
      }
      return true;
    },
    stop: () => tabs.withTab((id) => client.send({ type: 'panel/stop', tabId: id })),
    retry: () =>
      tabs.withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'panel/retry', tabId: id });
      }),
    newChat: (seed) =>
      tabs.withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'panel/new-chat', tabId: id, ...(seed ? { seed } : {}) });
      }),
  };
}
