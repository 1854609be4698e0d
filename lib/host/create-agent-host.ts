import {
  AGENT_PORT_NAME,
  type AdapterSummary,
  type AgentKind,
  type HostEvent,
  isPanelIntent,
  type PanelAsks,
  type PanelIntent,
} from '../messaging/agent-messages';
import { isLineMessage } from '../messaging/agent-client';
import { createRequestLine, type LineTransport } from '../messaging/create-request-line';
import { acceptExtensionPort } from '../messaging/accept-extension-port';
import { browserSessionId, createConversationStore, type ConversationStore, recordBrowserSession } from '../storage/conversations';
import type { CallRecord } from '../messaging/call-record';
import type { AgentHostDeps, HostPort } from './agent-host-deps';
import { createTabSession, type TabSession } from './create-tab-session';
import { errorMessage } from '../shared/error-message';
import { createHostAdapters } from './create-host-adapters';
import {
  createPanelAskHandlers,
  createTabIntentHandlers,
  handlePanelIntent,
  type PanelHandlers,
  type PanelNotice,
} from './create-panel-handlers';
import { createOpenTabLists } from './create-open-tab-lists';
import { redactSecrets } from '../transcript/redact-secrets';

/** The running host, for its entry point and for tests. */
export interface AgentHost {
  /** The tab's session, created (and its stored conversation loaded) on first use. */
  session(tabId: number, url?: string): Promise<TabSession>;
  /** Carries out one intent, as if a panel had sent it; resolves when it has been carried out. */
  handle(intent: PanelIntent, port?: HostPort): Promise<void>;
  /** The adapters as panels see them. */
  adapters(): Promise<{ chosen: AgentKind; adapters: AdapterSummary[] }>;
  /**
   * The tab closed: its run stops, its session leaves memory, and its stored conversation is deleted, or kept for
   * the browser's restore when the tab closed with its window (see lib/storage/conversations.ts).
   */
  closeTab(tabId: number, options?: { keepForRestore?: boolean }): Promise<void>;
  /** "Delete all conversations": every run stops, every panel shows an empty chat, and storage holds none. */
  deleteAllConversations(): Promise<void>;
}

/**
 * Starts the agent host: accepts side panel Ports, keeps one session per tab, runs the chosen adapter for each
 * message, and streams every change to the panels bound to that tab. Adapter status changes go to every panel.
 * The same code runs in Chrome's offscreen document and in Firefox's background page; only `deps` differ.
 */
export function createAgentHost(deps: AgentHostDeps): AgentHost {
  const generateId = deps.generateId ?? (() => crypto.randomUUID());
  const sessions = new Map<number, Promise<TabSession>>();
  const ports = new Map<HostPort, { tabId?: number }>();
  let store: Promise<ConversationStore> | undefined;
  const openTabLists = createOpenTabLists(deps.bridge);

  const conversationStore = () => {
    store ??= browserSessionId(deps.storage.session)
      .catch(() => crypto.randomUUID())
      .then(async (session) => {
        const conversations = createConversationStore(deps.storage.local, { session });
        // The retention sweep: records of sessions before the previous one, which no restored tab adopted, go.
        await recordBrowserSession(deps.storage.local, session)
          .then((kept) => conversations.keepSessions(kept))
          .catch(() => undefined);
        return conversations;
      });
    return store;
  };
  // Sweep at start, not at the first panel: a person who never opens the panel again still loses old records.
  void conversationStore();

  /** The saved API keys (`deps.secrets`): nothing the host hands a panel to show or export may contain them. */
  const keys = async () => (await deps.secrets?.().catch(() => [])) ?? [];
  // Timelines go out in the order they changed, each once the key is read (the schema's secrets are masked already).
  let timelines: Promise<void> = Promise.resolve();
  const postTimeline = (tabId: number, entries: CallRecord[], to: () => Iterable<HostPort>) => {
    timelines = timelines.then(async () => {
      const event: HostEvent = { type: 'panel/timeline', tabId, entries: redactSecrets(entries, { values: await keys() }) };
      for (const port of to()) post(port, event);
    });
    return timelines;
  };

  const session = (tabId: number, url?: string) => {
    let existing = sessions.get(tabId);
    if (!existing) {
      existing = conversationStore().then((conversations) => {
        const created = createTabSession({
          tabId,
          url,
          store: conversations,
          bridge: deps.bridge,
          settings: deps.settings,
          adapter: () => hostAdapters.chosen(),
          generateId,
          saveDelayMs: deps.saveDelayMs ?? 250,
          emitDelayMs: deps.emitDelayMs ?? 30,
        });
        created.subscribe((snapshot) => {
          for (const [port, binding] of ports) if (binding.tabId === tabId) post(port, { type: 'panel/tab', snapshot });
        });
        created.subscribeTimeline((entries) => {
          void postTimeline(tabId, entries, () => [...ports].filter(([, binding]) => binding.tabId === tabId).map(([port]) => port));
        });
        return created;
      });
      sessions.set(tabId, existing);
    }
    return existing;
  };

  const notice: PanelNotice = (port, message, tabId, draft) => {
    if (port)
      post(port, { type: 'panel/notice', message, ...(tabId !== undefined ? { tabId } : {}), ...(draft !== undefined ? { draft } : {}) });
  };
  const hostAdapters = createHostAdapters(
    deps,
    (event) => {
      for (const port of ports.keys()) post(port, event);
    },
    notice,
  );
  const handlers: PanelHandlers = {
    ...createTabIntentHandlers({
      session,
      follow: (port, tabId) => {
        const binding = ports.get(port);
        if (binding) binding.tabId = tabId;
      },
      summaries: hostAdapters.summaries,
      post,
      notice,
      postTimeline,
    }),
    ...hostAdapters.handlers,
  };
  const handle = async (intent: PanelIntent, port?: HostPort): Promise<void> => {
    await handlePanelIntent(handlers, intent, port);
  };

  deps.onConnect.addListener((port) => {
    // A content script can open a Port with the panel's name: it must not bind tabs, read conversations or answer
    // confirmations. Only what the browser attests counts.
    if (!acceptExtensionPort(port, AGENT_PORT_NAME, deps.extension)) return;
    ports.set(port, {});
    // The panel's asks, on the request line over the same Port; its close cancels every ask still running.
    createRequestLine<Record<never, never>, PanelAsks>({
      transport: hostPortTransport(port),
      handlers: createPanelAskHandlers({ session, summaries: hostAdapters.summaries, keys, lists: openTabLists }, port),
    });
    port.onDisconnect.addListener(() => {
      ports.delete(port);
      openTabLists.forget(port);
    });
    port.onMessage.addListener((message) => {
      if (isLineMessage(message)) return;
      if (!isPanelIntent(message)) return notice(port, 'The host did not understand a message from the panel.');
      handle(message, port).catch((error) => notice(port, errorMessage(error)));
    });
  });

  const closeTab = async (tabId: number, options: { keepForRestore?: boolean } = {}) => {
    // The tab leaves every task it was part of (tasks across tabs), before its own session goes.
    for (const [other, pending] of sessions) if (other !== tabId) void pending.then((s) => s.taskTabGone(tabId, 'closed'));
    const existing = sessions.get(tabId);
    if (existing) {
      const s = await existing;
      s.stop();
      s.close();
      await s.idle();
      // Only now: a save still in flight would otherwise write the record back after it was deleted.
      if (sessions.get(tabId) === existing) sessions.delete(tabId);
    }
    await (await conversationStore()).forgetTab(tabId, options);
  };

  const deleteAllConversations = async () => {
    // Empty every chat in memory first (panels hear it), so no pending save brings a record back afterwards.
    await Promise.all(
      [...sessions.values()].map(async (existing) => {
        const s = await existing;
        await s.newChat();
        s.clearTimeline();
      }),
    );
    await (await conversationStore()).removeAll();
  };

  return { session, handle, adapters: () => hostAdapters.summaries(), closeTab, deleteAllConversations };
}

function post(port: HostPort, event: HostEvent): void {
  try {
    port.postMessage(event);
  } catch {
    // The panel closed between the change and the update: nothing to tell.
  }
}

/** The request line's transport over a panel's Port: the Port's close closes the line. */
function hostPortTransport(port: HostPort): LineTransport {
  return {
    send: (message) => port.postMessage(message as unknown as HostEvent),
    onMessage: (listener) => port.onMessage.addListener((message) => isLineMessage(message) && listener(message)),
    onClose: (listener) => port.onDisconnect.addListener(() => listener()),
    close: () => port.disconnect?.(),
  };
}
