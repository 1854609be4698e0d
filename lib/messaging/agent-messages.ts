/**
 * The side panel ↔ agent host protocol, declared once for both ends. The panel opens a runtime Port named
 * {@link AGENT_PORT_NAME} straight to the host (Chrome's offscreen document, Firefox's background page), sends
 * {@link PanelIntent}s and receives {@link HostEvent}s. The host is the only owner of conversation state: every
 * event carries a full snapshot, so a panel that (re)connects late simply renders the latest one.
 */
import type { DroppedTools, LegacyApi, PageLimitNotice } from './tab-tool-snapshot';
import type { AdapterStatus, AgentErrorCode, AgentMessage, JSONSchema, ModelChoice, PageContext, ToolDescriptor } from '../agent/types';
import type { CallRecord } from './call-record';
import type { ChannelMessage } from './channel';
import type { OpenTab, TaskFlow, TaskTab, TaskTabLeft } from './task-tabs';

/** The runtime Port name the host listens for. */
export const AGENT_PORT_NAME = 'webmcp-agent-panel';

/** Most tab ids one `panel/list-tabs` ask may name: the host reads each tab's snapshot, so a list has an end. */
const MAX_LISTED_TABS = 100;

/** The adapters the person can choose between with the "Agent" control. */
export type AgentKind = 'local' | 'cloud';

/** The two transcript exports. */
export type TranscriptFormat = 'markdown' | 'json';

/**
 * The person's answer to a confirmation prompt. `allow-task`: "Allow for this task", offered only for a crossing
 * between the sites of a task across tabs (PendingConfirmation.allowTask); it lasts as long as the conversation.
 */
export type ConfirmationAnswer = 'allow-once' | 'allow-always' | 'allow-task' | 'deny';

/**
 * What a panel tells the host to do, on the panel's Port (no answers: the host's events carry the results). Every
 * tab-scoped intent names its tab: one panel may follow tab switches. What the panel waits on an answer for is a
 * {@link PanelAsks} instead.
 */
export interface PanelChannel {
  /** Follow this tab: the host answers with its snapshot and keeps sending updates. `url` helps adopt a
   * conversation after a browser restart, when the tab came back under a new id. */
  'panel/bind': { request: { tabId: number; url?: string }; answer: undefined };
  /**
   * `site`: the top-level site the person typed the message on; the host runs it only while the tab is known to
   * show that site (a message with no site is no message).
   */
  'panel/send': { request: { tabId: number; text: string; site: string }; answer: undefined };
  'panel/stop': { request: { tabId: number }; answer: undefined };
  'panel/retry': { request: { tabId: number }; answer: undefined };
  /** Clears the conversation; `seed` starts the new one with earlier turns (an eval case's history). */
  'panel/new-chat': { request: { tabId: number; seed?: AgentMessage[] }; answer: undefined };
  /** Answers the confirmation the host named `confirmationId` (its own id, never the model's call id). */
  'panel/confirm': { request: { tabId: number; confirmationId: string; answer: ConfirmationAnswer }; answer: undefined };
  /**
   * The person pressed Reveal in an open question whose arguments were masked: the host answers this Port alone
   * with `panel/revealed`, and only for a question still open on that tab.
   */
  'panel/reveal': { request: { tabId: number; confirmationId: string }; answer: undefined };
  /**
   * The person adds the open tab `addTabId` to the conversation of tab `tabId` (docs/security.md, "Tasks across
   * tabs"). Only this intent adds a tab, and the host takes it from the extension's own pages alone; the tab's site
   * is the router's, never the panel's. A refusal comes back as a `panel/notice`.
   */
  'panel/add-task-tab': { request: { tabId: number; addTabId: number }; answer: undefined };
  /** The person removes the tab `removeTabId` from the conversation of tab `tabId`. */
  'panel/remove-task-tab': { request: { tabId: number; removeTabId: number }; answer: undefined };
  /** Re-read settings and the tab's tools (the panel became visible again, or the person saved options). */
  'panel/refresh': { request: { tabId: number }; answer: undefined };
  'panel/choose-adapter': { request: { adapter: AgentKind }; answer: undefined };
  'panel/choose-model': { request: { adapter: AgentKind; modelId: string }; answer: undefined };
  /** Start the chosen adapter's heavy setup (the model download): only ever from the person's click. */
  'panel/prepare': { request: { adapter: AgentKind }; answer: undefined };
  'panel/cancel-prepare': { request: { adapter: AgentKind }; answer: undefined };
}

/** Any intent. */
export type PanelIntent = ChannelMessage<PanelChannel>;

/**
 * What a panel asks the host and waits on, on the request line over the same Port (lib/messaging/create-request-line.ts,
 * port-transport.ts): each ask is answered once, to the asking panel alone, or fails; every ask pending when the Port
 * drops (the host restarted, the extension updated) fails with {@link HOST_LEFT_UNANSWERED}.
 */
export interface PanelAsks {
  /** The conversation as Markdown or JSON; `secretFields` names, per tool, the arguments the person marked secret. */
  'panel/export-transcript': {
    request: { tabId: number; format: TranscriptFormat; secretFields?: Record<string, string[]> };
    answer: { text: string; fileName: string };
  };
  /**
   * `value` with the saved API key replaced wherever it appears: the panel never holds the key, yet its exports (the
   * eval report) must not contain it.
   */
  'panel/redact': { request: { value: unknown }; answer: { value: unknown } };
  /**
   * Runs one tool by hand from the inspector, through the same validation, confirmation policy, bridge and cursor
   * as an agent's call; answered once the call has ended (its outcome is in the timeline). `requestId` is the
   * panel's, to find the call in the timeline; the call id is the host's.
   */
  'panel/run-tool': { request: { tabId: number; requestId: string; name: string; input: Record<string, unknown> }; answer: null };
  /**
   * The task chooser asks what the router knows of the open tabs `tabIds` (the panel's tabs.query): their site, title
   * and tool count, sent as an update now and again whenever a listed tab's snapshot changes, until the panel cancels
   * the ask (it lists again, or follows another tab). At most {@link MAX_LISTED_TABS} ids.
   */
  'panel/list-tabs': { request: { tabId: number; tabIds: number[] }; answer: null; update: OpenTab[] };
}

/** What every ask still pending when the panel's Port drops fails with: the host that comes back knows nothing of it. */
export const HOST_LEFT_UNANSWERED = 'The agent host restarted before it answered. Try again.';

/** Whether a request of the line is a well-formed ask of this type: the host trusts nothing it receives. */
export function isPanelAsk<T extends keyof PanelAsks>(type: T, request: unknown): request is PanelAsks[T]['request'] {
  if (typeof request !== 'object' || request === null) return false;
  const v = request as Record<string, unknown>;
  switch (type) {
    case 'panel/export-transcript':
      return (
        Number.isInteger(v.tabId) &&
        (v.format === 'markdown' || v.format === 'json') &&
        (v.secretFields === undefined || isSecretFields(v.secretFields))
      );
    case 'panel/redact':
      return 'value' in v;
    case 'panel/run-tool':
      return (
        Number.isInteger(v.tabId) &&
        typeof v.requestId === 'string' &&
        typeof v.name === 'string' &&
        typeof v.input === 'object' &&
        v.input !== null &&
        !Array.isArray(v.input)
      );
    case 'panel/list-tabs':
      return Number.isInteger(v.tabId) && Array.isArray(v.tabIds) && v.tabIds.length <= MAX_LISTED_TABS && v.tabIds.every(isTabId);
    default:
      return false;
  }
}

/** A tool call parked on the person's Allow, shown with Allow once / Always on this site / Deny. */
export interface PendingConfirmation {
  /** The host's own id for this question (random): the only id a `confirm` intent is matched against. */
  id: string;
  /** The model's call id, to show the question on its call's card. */
  callId: string;
  toolName: string;
  /** The origin of the frame whose tool would run (not always the top page's), for "Always on this site". */
  origin?: string;
  /** False for a tool the page marks consequential: it asks every time, so "Always" is not offered. */
  allowAlways: boolean;
  /**
   * The crossings "Allow for this task" would allow (from the sites whose data the conversation holds to the site
   * of the tool), when the question offers it: a task across tabs, asked only because the data would cross.
   */
  allowTask?: TaskFlow[];
  /** The question, in words: "Allow check_out on 127.0.0.1?" */
  prompt: string;
  /**
   * The call's arguments as JSON text, shown with the question when it asks whatever the policy says (the
   * conversation holds another site's data, or an earlier call's outcome is unknown) and with every desktop agent's
   * question: the person sees what goes. What the tool's schema marks secret is masked here (`[redacted]`).
   */
  input?: string;
  /**
   * Secret values were masked in `input`: the question offers a Reveal, which asks the host for them
   * (`panel/reveal`) and shows them in this question only.
   */
  masked?: true;
  /**
   * The desktop agent whose call this is (the MCP bridge, lib/mcp-bridge), as it named itself: the question is not on
   * any card of the conversation, and the arguments are always shown.
   */
  requester?: string;
}

/** How the tab's last run ended; absent while it runs and before the first one. */
export interface RunOutcome {
  reason: 'stop' | 'max-steps' | 'aborted' | 'error';
  /** The run's error message (reason 'error'). */
  error?: string;
  code?: AgentErrorCode;
}

/** Everything a panel renders for one tab. */
export interface TabSnapshot {
  tabId: number;
  /** The conversation, with live call states (awaiting-confirmation and its prompt) applied. */
  messages: AgentMessage[];
  running: boolean;
  lastRun?: RunOutcome;
  confirmations: PendingConfirmation[];
  /** The page's tools as the agent sees them here (after the site's tool filter), with where each lives. */
  tools: PanelTool[];
  /** False until the page has answered at least once: "no tools" is only claimed once known. */
  toolsKnown: boolean;
  /** Tools of the page the agent does not get (frames not delegated, per-tab caps), with a note for the person. */
  toolsDropped?: DroppedTools[];
  /**
   * What the extension refused of the page's work because it asked too much (lib/background/page-limits.ts), in the
   * extension's words: the panel says so on the tab.
   */
  pageLimits?: PageLimitNotice[];
  page?: PageContext;
  /**
   * The origins whose data the conversation holds (docs/security.md, "A conversation belongs to its site"): the
   * top-level site of each run and the frame of each tool whose result it read; the panel says so when any of them
   * is not the site the tab shows.
   */
  sites?: string[];
  /**
   * The tabs the person added to this conversation's task (docs/security.md, "Tasks across tabs"); absent while
   * the conversation has only its own tab.
   */
  taskTabs?: TaskTab[];
  /** The newest notes of tabs that left the task ("<site> left the task: …"). */
  taskLeft?: TaskTabLeft[];
}

/** A tool as the panel's inspector shows it: what the model sees, plus its frame, origin and output schema. */
export interface PanelTool extends ToolDescriptor {
  /** The page's own name for it (the model-facing `name` may differ). */
  originalName?: string;
  origin?: string;
  /** The extension frame id (0: the top frame). */
  frameId?: number;
  outputSchema?: JSONSchema;
  /** Why the page's inputSchema was replaced by an empty one. */
  schemaError?: string;
  declarative?: boolean;
  /** Registered through an API generation native WebMCP no longer has (the audit says so). */
  legacyApi?: LegacyApi;
}

/** One adapter as the panel shows it. */
export interface AdapterSummary {
  kind: AgentKind;
  label: string;
  status: AdapterStatus;
  models: ModelChoice[];
}

/** What the host tells a panel, on the same Port. */
interface PanelEventChannel {
  'panel/tab': { request: { snapshot: TabSnapshot }; answer: undefined };
  'panel/adapters': { request: { chosen: AgentKind; adapters: AdapterSummary[] }; answer: undefined };
  /** An intent could not be carried out (a model switch during a reply, a download that failed to start). */
  /** `draft`: a message the host did not send, for the panel to put back in the box. */
  'panel/notice': { request: { tabId?: number; message: string; draft?: string }; answer: undefined };
  /** The tab's call timeline (agent and by-hand calls), after every change. */
  'panel/timeline': { request: { tabId: number; entries: CallRecord[] }; answer: undefined };
  /** The clear arguments of one open question, after the person's Reveal in it (`panel/reveal`). */
  'panel/revealed': { request: { tabId: number; confirmationId: string; input: string }; answer: undefined };
}

/** Any event. */
export type HostEvent = ChannelMessage<PanelEventChannel>;

/** Narrows an unknown message to a PanelIntent: the host trusts nothing it receives. */
export function isPanelIntent(value: unknown): value is PanelIntent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const tabScoped = [
    'panel/bind',
    'panel/send',
    'panel/stop',
    'panel/retry',
    'panel/new-chat',
    'panel/confirm',
    'panel/reveal',
    'panel/refresh',
    'panel/add-task-tab',
    'panel/remove-task-tab',
  ];
  if (tabScoped.includes(v.type as string)) {
    if (typeof v.tabId !== 'number' || !Number.isInteger(v.tabId)) return false;
    if (v.type === 'panel/send') return typeof v.text === 'string' && typeof v.site === 'string';
    if (v.type === 'panel/new-chat') return v.seed === undefined || (Array.isArray(v.seed) && v.seed.every(isSeedMessage));
    if (v.type === 'panel/confirm')
      return typeof v.confirmationId === 'string' && ['allow-once', 'allow-always', 'allow-task', 'deny'].includes(v.answer as string);
    if (v.type === 'panel/reveal') return typeof v.confirmationId === 'string';
    if (v.type === 'panel/add-task-tab') return isTabId(v.addTabId);
    if (v.type === 'panel/remove-task-tab') return isTabId(v.removeTabId);
    return true;
  }
  const kind = v.adapter === 'local' || v.adapter === 'cloud';
  if (v.type === 'panel/choose-model') return kind && typeof v.modelId === 'string';
  return kind && ['panel/choose-adapter', 'panel/prepare', 'panel/cancel-prepare'].includes(v.type as string);
}

/** A browser tab id: a whole number, not negative (tabs.TAB_ID_NONE, -1, names no tab). */
function isTabId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A seeded conversation turn: a role, and text or tool parts. */
function isSeedMessage(value: unknown): value is AgentMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (typeof m.id !== 'string' || (m.role !== 'user' && m.role !== 'assistant') || !Array.isArray(m.parts)) return false;
  return m.parts.every((p: unknown) => {
    if (typeof p !== 'object' || p === null) return false;
    const part = p as Record<string, unknown>;
    if (part.type === 'text') return typeof part.text === 'string';
    return part.type === 'tool' && typeof part.id === 'string' && typeof part.name === 'string' && part.state === 'done';
  });
}

function isSecretFields(value: unknown): value is Record<string, string[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((names) => Array.isArray(names) && names.every((n) => typeof n === 'string'));
}
