import { computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { AgentMessage } from '../../lib/agent/types';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { AgentClient } from '../../lib/messaging/agent-client';
import { siteMovedBeforeSend } from '../../lib/shared/site-moved-before-send';
import { webOriginOf } from '../../lib/shared/web-origin-of';
import type {
  AdapterSummary,
  AgentKind,
  ConfirmationAnswer,
  HostEvent,
  TabSnapshot,
  TranscriptFormat,
} from '../../lib/messaging/agent-messages';

/** Why a message was not taken: nobody knows which site the tab shows, so there is no site it could go to. */
const NO_SITE_TO_SEND_TO =
  'The agent cannot tell which site this tab shows (it may be a browser page, or still loading), so your message was not sent.';

/** The panel's views: the conversation, the page's tools (the inspector), the developer's timeline and evals, and the audit. */
type PanelView = 'chat' | 'tools' | 'develop' | 'audit';

/** The panel's state, kept outside the views: signals the views read, and the intents they may send. */
export interface ChatStore {
  /** The tab this panel follows. */
  tabId: ReadonlySignal<number | undefined>;
  /** The host's latest snapshot of that tab. */
  tab: ReadonlySignal<TabSnapshot | undefined>;
  adapters: ReadonlySignal<AdapterSummary[]>;
  chosen: ReadonlySignal<AgentKind | undefined>;
  /** The chosen adapter's summary. */
  adapter: ReadonlySignal<AdapterSummary | undefined>;
  connected: ReadonlySignal<boolean>;
  /** The host's last notice (an intent it could not carry out). */
  notice: ReadonlySignal<string | undefined>;
  /** The composer's text: it lives here so switching views or tabs does not lose it. */
  draft: ReturnType<typeof signal<string>>;
  view: Signal<PanelView>;
  /** The tab's calls, by the agent and by hand, oldest first. */
  timeline: ReadonlySignal<CallRecord[]>;
  /** Arguments the person marked secret, per tool: masked in exports. */
  secretFields: Signal<Record<string, string[]>>;
  /** Whether Send may be pressed now (a message sent while the panel still connects waits, see `waiting`). */
  canSend: ReadonlySignal<boolean>;
  /**
   * A message the person sent while the panel was still connecting to its agent host, or the agent was still
   * starting: it goes out as soon as they are ready, and comes back to the message box if the agent cannot run.
   */
  waiting: ReadonlySignal<string | undefined>;
  bind(tabId: number, url?: string): void;
  /** Sends the draft; true when it went or waits to go (the draft is then cleared). */
  send(): boolean;
  stop(): void;
  retry(): void;
  /** Clears the conversation; `seed` starts the new one with earlier turns. */
  newChat(seed?: AgentMessage[]): void;
  /** Answers a confirmation by the id the host gave it. */
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  /**
   * The clear arguments of the open questions the person revealed, by question id: each shows only in its own
   * question, and goes when the question closes or the person hides it again.
   */
  revealed: ReadonlySignal<Readonly<Record<string, string>>>;
  /** The person's Reveal in one question whose secret arguments were masked: the host sends them for that question. */
  reveal(confirmationId: string): void;
  /** Masks that question's arguments again. */
  hide(confirmationId: string): void;
  /** Runs a tool by hand; returns the request id its timeline entry will carry. */
  runTool(name: string, input: Record<string, unknown>): string | undefined;
  /** The conversation as Markdown or JSON, from the host (which redacts the key and secret fields). */
  exportTranscript(format: TranscriptFormat): Promise<{ text: string; fileName: string }>;
  /** `value` with the saved API key replaced, by the host (the panel never holds the key): for exports built here. */
  redact<T>(value: T): Promise<T>;
  chooseAdapter(kind: AgentKind): void;
  chooseModel(modelId: string): void;
  prepare(): void;
  cancelPrepare(): void;
  /** Asks the host to re-read tools and settings (the panel became visible again). */
  refresh(): void;
  dismissNotice(): void;
}

/** Creates the store over a connection to the agent host. */
export function createChatStore(client: AgentClient): ChatStore {
  const tabId = signal<number | undefined>(undefined);
  const tab = signal<TabSnapshot | undefined>(undefined);
  const adapters = signal<AdapterSummary[]>([]);
  const chosen = signal<AgentKind | undefined>(undefined);
  const connected = signal(client.connected());
  const notice = signal<string | undefined>(undefined);
  const draft = signal('');
  const view = signal<PanelView>('chat');
  const timeline = signal<CallRecord[]>([]);
  const secretFields = signal<Record<string, string[]>>({});
  const revealed = signal<Readonly<Record<string, string>>>({});
  /** Keeps only the revealed arguments of questions `open` still has. */
  const keepRevealed = (open: readonly { id: string }[]) => {
    const ids = new Set(open.map((c) => c.id));
    const kept = Object.entries(revealed.value).filter(([id]) => ids.has(id));
    if (kept.length !== Object.keys(revealed.value).length) revealed.value = Object.fromEntries(kept);
  };
  const transcripts = new Map<string, (value: { text: string; fileName: string }) => void>();
  const redactions = new Map<string, (value: unknown) => void>();
  let requests = 0;
  const nextRequestId = () => `${Date.now().toString(36)}-${++requests}`;
  const adapter = computed(() => adapters.value.find((a) => a.kind === chosen.value));
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
  /** The tab's address as the browser last gave it (followTab: when bound, and at every change of address). */
  const tabUrl = signal<string | undefined>(undefined);
  /** Whether `tab` came over the current connection: a snapshot from before the host went away may be stale. */
  const fresh = signal(false);
  /** The site the agent host knows the tab shows now; undefined until a fresh snapshot names the page. */
  const hostSite = computed(() => (fresh.value ? webOriginOf(tab.value?.page?.url) : undefined));
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

  client.onConnectionChange((value) => {
    connected.value = value;
    // What the host said before it went away is not what it knows now (it may have restarted, the tab moved).
    if (!value) fresh.value = false;
  });
  client.subscribe((event: HostEvent) => {
    switch (event.type) {
      case 'panel/tab':
        if (event.snapshot.tabId === tabId.value) {
          tab.value = event.snapshot;
          // A question that closed takes what was revealed in it along.
          keepRevealed(event.snapshot.confirmations);
          fresh.value = true;
        }
        return;
      case 'panel/revealed': {
        const open = tab.value?.confirmations.some((c) => c.id === event.confirmationId && c.masked);
        if (event.tabId === tabId.value && open) revealed.value = { ...revealed.value, [event.confirmationId]: event.input };
        return;
      }
      case 'panel/adapters':
        adapters.value = event.adapters;
        chosen.value = event.chosen;
        return;
      case 'panel/notice':
        if (event.tabId === undefined || event.tabId === tabId.value) {
          notice.value = event.message;
          if (event.draft !== undefined) restore(event.draft);
        }
        return;
      case 'panel/timeline':
        if (event.tabId === tabId.value) timeline.value = event.entries;
        return;
      case 'panel/transcript':
        transcripts.get(event.requestId)?.({ text: event.text, fileName: event.fileName });
        transcripts.delete(event.requestId);
        return;
      case 'panel/redacted':
        redactions.get(event.requestId)?.(event.value);
        redactions.delete(event.requestId);
        return;
    }
  });

  const withTab = (act: (id: number) => void) => {
    if (tabId.value !== undefined) act(tabId.value);
  };

  return {
    tabId,
    tab,
    adapters,
    chosen,
    adapter,
    connected,
    notice,
    draft,
    view,
    timeline,
    secretFields,
    canSend,
    waiting,
    bind(id, url) {
      if (id === tabId.value) {
        // The same tab at a new address (followTab): the site a message is typed on, and may go to, changed.
        if (url !== undefined) tabUrl.value = url;
        return;
      }
      // A message waiting for the old tab never goes to the new one: it comes back to the box.
      if (waiting.value !== undefined) {
        if (draft.value.trim() === '') draft.value = waiting.value;
        waiting.value = undefined;
      }
      tabId.value = id;
      tabUrl.value = url;
      tab.value = undefined;
      fresh.value = false;
      timeline.value = [];
      revealed.value = {};
      notice.value = undefined;
      client.send({ type: 'panel/bind', tabId: id, ...(url ? { url } : {}) });
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
    stop: () => withTab((id) => client.send({ type: 'panel/stop', tabId: id })),
    retry: () =>
      withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'panel/retry', tabId: id });
      }),
    newChat: (seed) =>
      withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'panel/new-chat', tabId: id, ...(seed ? { seed } : {}) });
      }),
    runTool(name, input) {
      if (tabId.value === undefined) return undefined;
      const requestId = nextRequestId();
      client.send({ type: 'panel/run-tool', tabId: tabId.value, requestId, name, input });
      return requestId;
    },
    exportTranscript(format) {
      const id = tabId.value;
      if (id === undefined) return Promise.reject(new Error('The panel follows no tab.'));
      const requestId = nextRequestId();
      return new Promise((resolve) => {
        transcripts.set(requestId, resolve);
        client.send({ type: 'panel/export-transcript', tabId: id, requestId, format, secretFields: secretFields.value });
      });
    },
    redact(value) {
      const requestId = nextRequestId();
      return new Promise((resolve) => {
        redactions.set(requestId, resolve as (value: unknown) => void);
        client.send({ type: 'panel/redact', requestId, value });
      });
    },
    confirm: (confirmationId, answer) => withTab((id) => client.send({ type: 'panel/confirm', tabId: id, confirmationId, answer })),
    revealed,
    reveal: (confirmationId) => withTab((id) => client.send({ type: 'panel/reveal', tabId: id, confirmationId })),
    hide(confirmationId) {
      const { [confirmationId]: _hidden, ...rest } = revealed.value;
      revealed.value = rest;
    },
    chooseAdapter(kind) {
      // Shown at once; the host's next adapters event confirms it.
      chosen.value = kind;
      client.send({ type: 'panel/choose-adapter', adapter: kind });
    },
    chooseModel(modelId) {
      if (chosen.value) client.send({ type: 'panel/choose-model', adapter: chosen.value, modelId });
    },
    prepare() {
      if (chosen.value) client.send({ type: 'panel/prepare', adapter: chosen.value });
    },
    cancelPrepare() {
      if (chosen.value) client.send({ type: 'panel/cancel-prepare', adapter: chosen.value });
    },
    refresh: () => withTab((id) => client.send({ type: 'panel/refresh', tabId: id })),
    dismissNotice() {
      notice.value = undefined;
    },
  };
}
