import type { MessageOf } from '../messaging/channel';
import {
  type AdapterSummary,
  type AgentKind,
  type HostEvent,
  isPanelAsk,
  type PanelAsks,
  type PanelChannel,
  type PanelIntent,
} from '../messaging/agent-messages';
import type { LineHandlers } from '../messaging/create-request-line';
import type { OpenTab } from '../messaging/task-tabs';
import type { CallRecord } from '../messaging/call-record';
import { redactSecrets } from '../transcript/redact-secrets';
import type { HostPort } from './agent-host-deps';
import type { OpenTabLists } from './create-open-tab-lists';
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
  /** Posts one event to one Port (a Port already gone is no error). */
  post(port: HostPort, event: HostEvent): void;
  notice: PanelNotice;
  /** Sends a tab's timeline, redacted, to the Ports `to` names, in order with every other timeline. */
  postTimeline(tabId: number, entries: CallRecord[], to: () => Iterable<HostPort>): Promise<void>;
}

/** What the panel's asks read of the host. */
type AskParts = Pick<TabIntentParts, 'session' | 'summaries'> & {
  /** The saved API keys: nothing the host hands a panel to show or export may contain them. */
  keys(): Promise<string[]>;
  /** The task chooser's open-tab lists (create-open-tab-lists.ts). */
  lists: OpenTabLists;
};

/** What an ask the host cannot read fails with (its fields are not what agent-messages.ts declares). */
const NOT_UNDERSTOOD = 'The host did not understand a message from the panel.';

/** Fails an ask whose request is not what its type declares: whatever is on the line is untrusted. */
function checked<T extends keyof PanelAsks>(type: T, request: unknown): PanelAsks[T]['request'] {
  if (!isPanelAsk(type, request)) throw new Error(NOT_UNDERSTOOD);
  return request;
}

/** Resolves once `signal` aborts (the panel cancelled, or its line closed). */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/**
 * Creates the answers to one panel Port's asks, on the request line over that Port (agent-messages.ts, PanelAsks):
 * each answered to that panel alone.
 */
export function createPanelAskHandlers(parts: AskParts, port: HostPort): LineHandlers<PanelAsks> {
  const { session, keys } = parts;
  return {
    'panel/export-transcript': async (request) => {
      const ask = checked('panel/export-transcript', request);
      const s = await session(ask.tabId);
      const { chosen, adapters } = await parts.summaries();
      const summary = adapters.find((a) => a.kind === chosen);
      const model = summary?.models.find((m) => m.selected) ?? summary?.models.find((m) => m.recommended);
      return s.exportTranscript(ask.format, {
        adapter: { kind: chosen, label: summary?.label ?? chosen, ...(model ? { model: model.label } : {}) },
        secrets: await keys(),
        ...(ask.secretFields ? { secretFields: ask.secretFields } : {}),
      });
    },
    'panel/redact': async (request) => ({ value: redactSecrets(checked('panel/redact', request).value, { values: await keys() }) }),
    'panel/run-tool': async (request) => {
      const ask = checked('panel/run-tool', request);
      await (await session(ask.tabId)).runByHand(ask.name, ask.input, ask.requestId);
      return null;
    },
    'panel/list-tabs': async (request, { signal, update }) => {
      // Described to the asking panel alone, now and again as the listed tabs change, until it cancels.
      const ask = checked('panel/list-tabs', request);
      const send = (tabs: OpenTab[]) => update(tabs);
      await parts.lists.list(port, { tabId: ask.tabId, tabIds: ask.tabIds }, send);
      await aborted(signal);
      parts.lists.forget(port, send);
      return null;
    },
  };
}

/** The intents about one tab's conversation, its calls, its task and its exports. */
type TabIntents = Exclude<keyof PanelHandlers, 'panel/choose-adapter' | 'panel/choose-model' | 'panel/prepare' | 'panel/cancel-prepare'>;

/** Creates the handlers of the intents about a tab (the adapter intents are create-host-adapters.ts's). */
export function createTabIntentHandlers(parts: TabIntentParts): Pick<PanelHandlers, TabIntents> {
  const { session, post, notice } = parts;
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
    'panel/confirm': async (intent) => (await session(intent.tabId)).confirm(intent.confirmationId, intent.answer),
    'panel/add-task-tab': async (intent, port) => {
      // The person's choice, from the extension's own page (the Port guard in createAgentHost): nothing else adds a tab.
      const refused = await (await session(intent.tabId)).addTaskTab(intent.addTabId);
      if (refused) notice(port, refused, intent.tabId);
    },
    'panel/remove-task-tab': async (intent) => (await session(intent.tabId)).removeTaskTab(intent.removeTabId),
    'panel/reveal': async (intent, port) => {
      // Only to the panel that asked, and only while the question is open on that tab.
      const input = (await session(intent.tabId)).reveal(intent.confirmationId);
      if (port && input !== undefined)
        post(port, { type: 'panel/revealed', tabId: intent.tabId, confirmationId: intent.confirmationId, input });
    },
  };
}
