import { type ReadonlySignal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { ConfirmationAnswer, HostEvent } from '../../lib/messaging/agent-messages';
import type { TabLink } from './create-tab-slice';

/** The host's open questions on the tab: the person's answers, and the secret arguments they revealed in one. */
export interface QuestionsSlice {
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
}

/** Creates the questions slice; `receive` takes the host's snapshots and revealed arguments, `clear` forgets them all. */
export function createQuestionsSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId' | 'tab' | 'withTab'>,
): QuestionsSlice & { receive(event: HostEvent): void; clear(): void } {
  const revealed = signal<Readonly<Record<string, string>>>({});
  /** Keeps only the revealed arguments of questions `open` still has. */
  const keepRevealed = (open: readonly { id: string }[]) => {
    const ids = new Set(open.map((c) => c.id));
    const kept = Object.entries(revealed.value).filter(([id]) => ids.has(id));
    if (kept.length !== Object.keys(revealed.value).length) revealed.value = Object.fromEntries(kept);
  };
  return {
    revealed,
    receive(event) {
      if (event.type === 'panel/tab' && event.snapshot.tabId === tabs.tabId.value) {
        // A question that closed takes what was revealed in it along.
        keepRevealed(event.snapshot.confirmations);
      } else if (event.type === 'panel/revealed') {
        const open = tabs.tab.value?.confirmations.some((c) => c.id === event.confirmationId && c.masked);
        if (event.tabId === tabs.tabId.value && open) revealed.value = { ...revealed.value, [event.confirmationId]: event.input };
      }
    },
    clear() {
      revealed.value = {};
    },
    confirm: (confirmationId, answer) => tabs.withTab((id) => client.send({ type: 'panel/confirm', tabId: id, confirmationId, answer })),
    reveal: (confirmationId) => tabs.withTab((id) => client.send({ type: 'panel/reveal', tabId: id, confirmationId })),
    hide(confirmationId) {
      const { [confirmationId]: _hidden, ...rest } = revealed.value;
      revealed.value = rest;
    },
  };
}
