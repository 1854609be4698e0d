/**
 * The side panel ↔ agent host protocol, declared once for both ends. The panel opens a runtime Port named
 * {@link AGENT_PORT_NAME} straight to the host (Chrome's offscreen document, Firefox's background page), sends
 * {@link PanelIntent}s and receives {@link HostEvent}s. The host is the only owner of conversation state: every
 * event carries a full snapshot, so a panel that (re)connects late simply renders the latest one.
 */
import type { DroppedTools } from '../background/tool-bridge';
import type {
  AdapterStatus,
  AgentErrorCode,
  AgentMessage,
  ModelChoice,
  PageContext,
  ToolDescriptor,
} from '../agent/types';

/** The runtime Port name the host listens for. */
export const AGENT_PORT_NAME = 'webmcp-agent-panel';

/** The adapters the person can choose between with the "Agent" control. */
export type AgentKind = 'local' | 'cloud';

/** The person's answer to a confirmation prompt. */
export type ConfirmationAnswer = 'allow-once' | 'allow-always' | 'deny';

/** What a panel asks the host to do. Every tab-scoped intent names its tab: one panel may follow tab switches. */
export type PanelIntent =
  /** Follow this tab: the host answers with its snapshot and keeps sending updates. `url` helps adopt a
   * conversation after a browser restart, when the tab came back under a new id. */
  | { type: 'bind'; tabId: number; url?: string }
  | { type: 'send'; tabId: number; text: string }
  | { type: 'stop'; tabId: number }
  | { type: 'retry'; tabId: number }
  | { type: 'new-chat'; tabId: number }
  | { type: 'confirm'; tabId: number; callId: string; answer: ConfirmationAnswer }
  /** Re-read settings and the tab's tools (the panel became visible again, or the person saved options). */
  | { type: 'refresh'; tabId: number }
  | { type: 'choose-adapter'; adapter: AgentKind }
  | { type: 'choose-model'; adapter: AgentKind; modelId: string }
  /** Start the chosen adapter's heavy setup (the model download): only ever from the person's click. */
  | { type: 'prepare'; adapter: AgentKind }
  | { type: 'cancel-prepare'; adapter: AgentKind };

/** A tool call parked on the person's Allow, shown with Allow once / Always on this site / Deny. */
export interface PendingConfirmation {
  callId: string;
  toolName: string;
  /** The site the call would act on, for "Always on this site". */
  origin?: string;
  /** The question, in words: "Allow check_out on 127.0.0.1?" */
  prompt: string;
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
  /** The page's tools as the agent sees them here (after the site's tool filter). */
  tools: ToolDescriptor[];
  /** False until the page has answered at least once: "no tools" is only claimed once known. */
  toolsKnown: boolean;
  /** Tools of the page the agent does not get (frames not delegated, per-tab caps), with a note for the person. */
  toolsDropped?: DroppedTools[];
  page?: PageContext;
}

/** One adapter as the panel shows it. */
export interface AdapterSummary {
  kind: AgentKind;
  label: string;
  status: AdapterStatus;
  models: ModelChoice[];
}

/** What the host tells a panel. */
export type HostEvent =
  | { type: 'tab'; snapshot: TabSnapshot }
  | { type: 'adapters'; chosen: AgentKind; adapters: AdapterSummary[] }
  /** An intent could not be carried out (a model switch during a reply, a download that failed to start). */
  | { type: 'notice'; tabId?: number; message: string };

/** Narrows an unknown message to a PanelIntent: the host trusts nothing it receives. */
export function isPanelIntent(value: unknown): value is PanelIntent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const tabScoped = ['bind', 'send', 'stop', 'retry', 'new-chat', 'confirm', 'refresh'];
  if (tabScoped.includes(v.type as string)) {
    if (typeof v.tabId !== 'number' || !Number.isInteger(v.tabId)) return false;
    if (v.type === 'send') return typeof v.text === 'string';
    if (v.type === 'confirm')
      return typeof v.callId === 'string' && ['allow-once', 'allow-always', 'deny'].includes(v.answer as string);
    return true;
  }
  const kind = v.adapter === 'local' || v.adapter === 'cloud';
  if (v.type === 'choose-model') return kind && typeof v.modelId === 'string';
  return kind && ['choose-adapter', 'prepare', 'cancel-prepare'].includes(v.type as string);
}
