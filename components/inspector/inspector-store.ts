import type { ReadonlySignal, Signal } from '@preact/signals';
import type { AgentMessage } from '../../lib/agent/types';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { AdapterSummary, ConfirmationAnswer, TabSnapshot } from '../../lib/messaging/agent-messages';

/**
 * What the inspector (Tools, Develop, Audit) reads and does through the panel's store (components/panel composes
 * it): the tab, its calls, the agents, and, for the evals, the same conversation the person sees.
 */
export interface InspectorStore {
  tabId: ReadonlySignal<number | undefined>;
  tab: ReadonlySignal<TabSnapshot | undefined>;
  /** The tab's calls, by the agent and by hand, oldest first. */
  timeline: ReadonlySignal<CallRecord[]>;
  /** Arguments the person marked secret, per tool: masked in exports. */
  secretFields: Signal<Record<string, string[]>>;
  adapters: ReadonlySignal<AdapterSummary[]>;
  /** The chosen adapter's summary. */
  adapter: ReadonlySignal<AdapterSummary | undefined>;
  /** Runs a tool by hand; returns the request id its timeline entry will carry. */
  runTool(name: string, input: Record<string, unknown>): string | undefined;
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  /** Asks the host to re-read the tab's tools. */
  refresh(): void;
  /** `value` with the saved API key replaced, by the host: for exports built here. */
  redact<T>(value: T): Promise<T>;
  /** The composer's text, which an eval case fills before it sends. */
  draft: Signal<string>;
  send(): boolean;
  stop(): void;
  newChat(seed?: AgentMessage[]): void;
}
