import type { MessageOf } from '../messaging/channel';
import type { AdapterSummary, AgentKind, HostEvent, PanelChannel, PanelIntent } from '../messaging/agent-messages';
import type { CallRecord } from '../messaging/call-record';
import { redactSecrets } from '../transcript/redact-secrets';
import type { HostPort } from './agent-host-deps';
import type { TabSession } from './create-tab-session';

/**
 * The host's answer to every panel intent, keyed by `<channel>/<verb>` as lib/messaging/agent-messages.ts declares
 * them, given the intent and the Port it came on (none when the host carries one out itself).
 */
export type PanelHandlers = {
  [T in keyof PanelChannel & string]: (intent: MessageOf<PanelChannel, T>, port: HostPort | undefined) => void | Promise<void>;
};

/** Hands an intent to its handler, at once (the host's state changes in the order intents arrive). */
export function handlePanelIntent(handlers: PanelHandlers, intent: PanelIntent, port: HostPort | undefined): void | Promise<void> {
  const handler = handlers[intent.type] as (intent: PanelIntent, port: HostPort | undefined) => void | Promise<void>;
  return handler(intent, port);
}

/** Tells one panel (when there is one) what could not be done; `draft` goes back to its box. */
export type PanelNotice = (port: HostPort | undefined, message: string, tabId?: number, draft?: string) => void;

/** What the tab intents read and write of the host. */
interface TabIntentParts {
  /** The tab's session, created on first use. */
  session(tabId: number, url?: string): Promise<TabSession>;
  /** The Port follows this tab from now on. */
  follow(port: HostPort, tabId: number): void;
  /** The adapters as panels see them. */
  summaries(): Promise<{ chosen: AgentKind; adapters: AdapterSummary[] }>;
  /** The saved API keys: nothing the host hands a panel to show or export may contain them. */
  keys(): Promise<string[]>;
  /** Posts one event to one Port (a Port already gone is no error). */
  post(port: HostPort, event: HostEvent): void;
  notice: PanelNotice;
  /** Sends a tab's timeline, redacted, to the Ports `to` names, in order with every other timeline. */
  postTimeline(tabId: number, entries: CallRecord[], to: () => Iterable<HostPort>): Promise<void>;
  /** The task chooser's open-tab lists (create-open-tab-lists.ts). */
  listTabs(port: HostPort, request: { tabId: number; requestId: string; tabIds: number[] }): Promise<void>;
}

/** The intents about one tab's conversation, its calls, its task and its exports. */
type TabIntents = Exclude<keyof PanelHandlers, 'panel/choose-adapter' | 'panel/choose-model' | 'panel/prepare' | 'panel/cancel-prepare'>;

/** Creates the handlers of the intents about a tab (the adapter intents are create-host-adapters.ts's). */
export function createTabIntentHandlers(parts: TabIntentParts): Pick<PanelHandlers, TabIntents> {
  const { session, post, notice, keys } = parts;
  return {
    'panel/bind': async (intent, port) => {
      if (port) parts.follow(port, intent.tabId);
      const s = await session(intent.tabId, intent.url);
      await s.ready;
      if (port) post(port, { type: 'panel/tab', snapshot: s.snapshot() });
      if (port) await parts.postTimeline(intent.tabId, s.timeline(), () => [port]);
      if (port) post(port, { type: 'panel/adapters', ...(await parts.summaries()) });
      await s.refreshTools();
    },
    'panel/refresh': async (intent, port) => {
      const s = await session(intent.tabId);
      await s.refreshTools();
      if (port) post(port, { type: 'panel/adapters', ...(await parts.summaries()) });
    },
    'panel/send': async (intent, port) => {
      const s = await session(intent.tabId);
      await s.ready;
      if (s.snapshot().running) return notice(port, 'A reply is still running: wait for it, or press Stop.', intent.tabId);
      // A message typed on one site never goes to another: it comes back to the box with the reason.
      const refused = await s.send(intent.text, intent.site);
      if (refused) notice(port, refused.refused, intent.tabId, intent.text);
    },
    'panel/retry': async (intent) => (await session(intent.tabId)).retry(),
    'panel/stop': async (intent) => (await session(intent.tabId)).stop(),
    'panel/new-chat': async (intent) => (await session(intent.tabId)).newChat(intent.seed),
    'panel/run-tool': async (intent) => (await session(intent.tabId)).runByHand(intent.name, intent.input, intent.requestId),
    'panel/export-transcript': async (intent, port) => {
      const s = await session(intent.tabId);
      const { chosen, adapters } = await parts.summaries();
      const summary = adapters.find((a) => a.kind === chosen);
      const model = summary?.models.find((m) => m.selected) ?? summary?.models.find((m) => m.recommended);
      const { text, fileName } = s.exportTranscript(intent.format, {
        adapter: { kind: chosen, label: summary?.label ?? chosen, ...(model ? { model: model.label } : {}) },
        secrets: await keys(),
        ...(intent.secretFields ? { secretFields: intent.secretFields } : {}),
      });
      if (port)
        post(port, { type: 'panel/transcript', tabId: intent.tabId, requestId: intent.requestId, format: intent.format, text, fileName });
    },
    'panel/redact': async (intent, port) => {
      const value = redactSecrets(intent.value, { values: await keys() });
      if (port) post(port, { type: 'panel/redacted', requestId: intent.requestId, value });
    },
    'panel/confirm': async (intent) => (await session(intent.tabId)).confirm(intent.confirmationId, intent.answer),
    'panel/add-task-tab': async (intent, port) => {
      // The person's choice, from the extension's own page (the Port guard in createAgentHost): nothing else adds a tab.
      const refused = await (await session(intent.tabId)).addTaskTab(intent.addTabId);
      if (refused) notice(port, refused, intent.tabId);
    },
    'panel/remove-task-tab': async (intent) => (await session(intent.tabId)).removeTaskTab(intent.removeTabId),
    'panel/list-tabs': async (intent, port) => {
      // Answered to the asking panel alone, and again as the listed tabs change: what the router names for each.
      if (port) await parts.listTabs(port, { tabId: intent.tabId, requestId: intent.requestId, tabIds: intent.tabIds });
    },
    'panel/reveal': async (intent, port) => {
      // Only to the panel that asked, and only while the question is open on that tab.
      const input = (await session(intent.tabId)).reveal(intent.confirmationId);
      if (port && input !== undefined)
        post(port, { type: 'panel/revealed', tabId: intent.tabId, confirmationId: intent.confirmationId, input });
    },
  };
}
