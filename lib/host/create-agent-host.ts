import type { AgentAdapter } from '../agent/types';
import {
  AGENT_PORT_NAME,
  type AdapterSummary,
  type AgentKind,
  type HostEvent,
  isPanelIntent,
  type PanelIntent,
} from '../messaging/agent-messages';
import { acceptExtensionPort } from '../messaging/accept-extension-port';
import { browserSessionId, createConversationStore, type ConversationStore, recordBrowserSession } from '../storage/conversations';
import type { CallRecord } from '../messaging/call-record';
import type { AgentHostDeps, HostPort } from './agent-host-deps';
import { createTabSession, type TabSession } from './create-tab-session';
import { errorMessage } from '../shared/error-message';
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

/** Says why no adapter can run, for a kind the build has no adapter for. */
const MISSING_ADAPTER = (kind: AgentKind) =>
  kind === 'local' ? 'On-device mode is not available in this build.' : 'Cloud mode is not available in this build.';

/**
 * Starts the agent host: accepts side panel Ports, keeps one session per tab, runs the chosen adapter for each
 * message, and streams every change to the panels bound to that tab. Adapter status changes go to every panel.
 * The same code runs in Chrome's offscreen document and in Firefox's background page; only `deps` differ.
 */
export function createAgentHost(deps: AgentHostDeps): AgentHost {
  const generateId = deps.generateId ?? (() => crypto.randomUUID());
  const sessions = new Map<number, Promise<TabSession>>();
  const ports = new Map<HostPort, { tabId?: number }>();
  const prepares = new Map<AgentKind, AbortController>();
  let store: Promise<ConversationStore> | undefined;
  const openTabLists = createOpenTabLists(deps.bridge, post);

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

  const chosenAdapter = async (): Promise<AgentAdapter | { unavailable: string }> => {
    const { mode } = await deps.settings.read();
    await deps.adapters.refresh();
    return deps.adapters.get(mode) ?? { unavailable: MISSING_ADAPTER(mode) };
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
          adapter: chosenAdapter,
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

  const adapters = async () => {
    const { mode } = await deps.settings.read();
    await deps.adapters.refresh();
    const summaries: AdapterSummary[] = (['local', 'cloud'] as const).map((kind) => {
      const adapter = deps.adapters.get(kind);
      return adapter
        ? {
            kind,
            label: adapter.label,
            status: adapter.status?.() ?? { state: 'ready' },
            models: [...(adapter.models?.() ?? [])],
          }
        : {
            kind,
            label: kind === 'local' ? 'On-device' : 'Cloud',
            status: { state: 'unavailable', reason: MISSING_ADAPTER(kind) },
            models: [],
          };
    });
    return { chosen: mode, adapters: summaries };
  };

  let adaptersTimer: ReturnType<typeof setTimeout> | undefined;
  const broadcastAdapters = () => {
    if (adaptersTimer !== undefined) return;
    // Download progress can tick many times a second: one update per 100 ms is plenty for a progress bar.
    adaptersTimer = setTimeout(async () => {
      adaptersTimer = undefined;
      const event: HostEvent = { type: 'panel/adapters', ...(await adapters()) };
      for (const port of ports.keys()) post(port, event);
    }, 100);
  };
  deps.adapters.subscribe(broadcastAdapters);

  const notice = (port: HostPort | undefined, message: string, tabId?: number, draft?: string) => {
    if (port)
      post(port, { type: 'panel/notice', message, ...(tabId !== undefined ? { tabId } : {}), ...(draft !== undefined ? { draft } : {}) });
  };

  const handle = async (intent: PanelIntent, port?: HostPort): Promise<void> => {
    switch (intent.type) {
      case 'panel/bind': {
        const binding = port ? ports.get(port) : undefined;
        if (binding) binding.tabId = intent.tabId;
        const s = await session(intent.tabId, intent.url);
        await s.ready;
        if (port) post(port, { type: 'panel/tab', snapshot: s.snapshot() });
        if (port) await postTimeline(intent.tabId, s.timeline(), () => [port]);
        if (port) post(port, { type: 'panel/adapters', ...(await adapters()) });
        await s.refreshTools();
        return;
      }
      case 'panel/refresh': {
        const s = await session(intent.tabId);
        await s.refreshTools();
        if (port) post(port, { type: 'panel/adapters', ...(await adapters()) });
        return;
      }
      case 'panel/send': {
        const s = await session(intent.tabId);
        await s.ready;
        if (s.snapshot().running) return notice(port, 'A reply is still running: wait for it, or press Stop.', intent.tabId);
        // A message typed on one site never goes to another: it comes back to the box with the reason.
        const refused = await s.send(intent.text, intent.site);
        if (refused) notice(port, refused.refused, intent.tabId, intent.text);
        return;
      }
      case 'panel/retry':
        return (await session(intent.tabId)).retry();
      case 'panel/stop':
        return (await session(intent.tabId)).stop();
      case 'panel/new-chat':
        return (await session(intent.tabId)).newChat(intent.seed);
      case 'panel/run-tool':
        return (await session(intent.tabId)).runByHand(intent.name, intent.input, intent.requestId);
      case 'panel/export-transcript': {
        const s = await session(intent.tabId);
        const { chosen, adapters: summaries } = await adapters();
        const summary = summaries.find((a) => a.kind === chosen);
        const model = summary?.models.find((m) => m.selected) ?? summary?.models.find((m) => m.recommended);
        const { text, fileName } = s.exportTranscript(intent.format, {
          adapter: { kind: chosen, label: summary?.label ?? chosen, ...(model ? { model: model.label } : {}) },
          secrets: await keys(),
          ...(intent.secretFields ? { secretFields: intent.secretFields } : {}),
        });
        if (port)
          post(port, { type: 'panel/transcript', tabId: intent.tabId, requestId: intent.requestId, format: intent.format, text, fileName });
        return;
      }
      case 'panel/redact': {
        const value = redactSecrets(intent.value, { values: await keys() });
        if (port) post(port, { type: 'panel/redacted', requestId: intent.requestId, value });
        return;
      }
      case 'panel/confirm':
        return (await session(intent.tabId)).confirm(intent.confirmationId, intent.answer);
      case 'panel/add-task-tab': {
        // The person's choice, from the extension's own page (the Port guard below): nothing else adds a tab.
        const refused = await (await session(intent.tabId)).addTaskTab(intent.addTabId);
        if (refused) notice(port, refused, intent.tabId);
        return;
      }
      case 'panel/remove-task-tab':
        return (await session(intent.tabId)).removeTaskTab(intent.removeTabId);
      case 'panel/list-tabs':
        // Answered to the asking panel alone, and again as the listed tabs change: what the router names for each.
        if (port) await openTabLists.list(port, { tabId: intent.tabId, requestId: intent.requestId, tabIds: intent.tabIds });
        return;
      case 'panel/reveal': {
        // Only to the panel that asked, and only while the question is open on that tab.
        const input = (await session(intent.tabId)).reveal(intent.confirmationId);
        if (port && input !== undefined)
          post(port, { type: 'panel/revealed', tabId: intent.tabId, confirmationId: intent.confirmationId, input });
        return;
      }
      case 'panel/choose-adapter':
        await deps.settings.setMode(intent.adapter);
        broadcastAdapters();
        return;
      case 'panel/choose-model': {
        await deps.adapters.refresh();
        const adapter = deps.adapters.get(intent.adapter);
        if (!adapter?.selectModel) return notice(port, 'This agent has no other models.');
        try {
          await adapter.selectModel(intent.modelId);
          await deps.saveModel?.(intent.adapter, intent.modelId);
        } catch (error) {
          notice(port, `Could not switch models: ${errorMessage(error)}`);
        }
        broadcastAdapters();
        return;
      }
      case 'panel/prepare': {
        await deps.adapters.refresh();
        const adapter = deps.adapters.get(intent.adapter);
        if (!adapter?.prepare || prepares.has(intent.adapter)) return;
        const controller = new AbortController();
        prepares.set(intent.adapter, controller);
        broadcastAdapters();
        try {
          await adapter.prepare(controller.signal);
        } catch (error) {
          if (!controller.signal.aborted) notice(port, `The download failed: ${errorMessage(error)}`);
        } finally {
          prepares.delete(intent.adapter);
          broadcastAdapters();
        }
        return;
      }
      case 'panel/cancel-prepare':
        prepares.get(intent.adapter)?.abort();
        return;
    }
  };

  deps.onConnect.addListener((port) => {
    // A content script can open a Port with the panel's name: it must not bind tabs, read conversations or answer
    // confirmations. Only what the browser attests counts.
    if (!acceptExtensionPort(port, AGENT_PORT_NAME, deps.extension)) return;
    ports.set(port, {});
    port.onDisconnect.addListener(() => {
      ports.delete(port);
      openTabLists.forget(port);
    });
    port.onMessage.addListener((message) => {
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

  return { session, handle, adapters, closeTab, deleteAllConversations };
}

function post(port: HostPort, event: HostEvent): void {
  try {
    port.postMessage(event);
  } catch {
    // The panel closed between the change and the update: nothing to tell.
  }
}
