import type { ReadonlySignal, Signal } from '@preact/signals';
import type { AgentMessage } from '../../lib/agent/types';
import type { AdapterSummary, AgentKind, ConfirmationAnswer, TabSnapshot, TranscriptFormat } from '../../lib/messaging/agent-messages';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { TaskTabLeft } from '../../lib/messaging/task-tabs';
import type { SecretReveal } from '../shared/question-arguments';
import type { TaskTabsStore } from './task-tabs-chooser';

/**
 * What the chat's views read and do through the panel's store (components/panel composes it): the tab's
 * conversation, the composer, the agents to choose from, and the answers to the host's questions.
 */
export interface ChatStore extends SecretReveal, TaskTabsStore {
  tab: ReadonlySignal<TabSnapshot | undefined>;
  /** The chosen adapter's summary. */
  adapter: ReadonlySignal<AdapterSummary | undefined>;
  chosen: ReadonlySignal<AgentKind | undefined>;
  /** The composer's text. */
  draft: Signal<string>;
  canSend: ReadonlySignal<boolean>;
  /** A message sent before the agent was ready, waiting to go. */
  waiting: ReadonlySignal<string | undefined>;
  send(): boolean;
  stop(): void;
  retry(): void;
  newChat(seed?: AgentMessage[]): void;
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  exportTranscript(format: TranscriptFormat): Promise<{ text: string; fileName: string }>;
  chooseAdapter(kind: AgentKind): void;
  chooseModel(modelId: string): void;
  /** The tab's calls: in a task across tabs, each names the tab and site it ran on. */
  timeline: ReadonlySignal<CallRecord[]>;
  /** The newest note of a tab that left the task, until dismissed. */
  taskLeft: ReadonlySignal<TaskTabLeft | undefined>;
  dismissTaskLeft(): void;
}
