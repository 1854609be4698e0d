import type { ReadonlySignal, Signal } from '@preact/signals';
import type { AgentMessage } from '../../lib/agent/types';
import type { AdapterSummary, AgentKind, ConfirmationAnswer, TabSnapshot, TranscriptFormat } from '../../lib/messaging/agent-messages';
import type { SecretReveal } from '../shared/question-arguments';

/**
 * What the chat's views read and do through the panel's store (components/panel composes it): the tab's
 * conversation, the composer, the agents to choose from, and the answers to the host's questions.
 */
export interface ChatStore extends SecretReveal {
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
}
