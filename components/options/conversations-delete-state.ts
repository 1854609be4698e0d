import { batch, type ReadonlySignal, signal } from '@preact/signals';
import type { OptionsClient } from '../../lib/messaging/options-client';
import type { Notice } from './notice';

/** "Delete all conversations", asked twice before it is done. */
export interface ConversationsDeleteState {
  /** "Delete all conversations": idle, waiting for the second click, or deleting. */
  conversationsDelete: ReadonlySignal<'idle' | 'confirming' | 'deleting'>;
  /** What became of the last "Delete all conversations". */
  conversationsNotice: ReadonlySignal<Notice | undefined>;
  /** First call asks for confirmation; confirmDeleteConversations does it. */
  requestDeleteConversations(): void;
  cancelDeleteConversations(): void;
  /** Asks the host to delete every conversation, stored and shown in open panels. */
  confirmDeleteConversations(): Promise<void>;
}

/** Creates the two-click deletion of every conversation over the client (agent host). */
export function createConversationsDeleteState(client: Pick<OptionsClient, 'deleteConversations'>): ConversationsDeleteState {
  const conversationsDelete = signal<'idle' | 'confirming' | 'deleting'>('idle');
  const conversationsNotice = signal<Notice | undefined>(undefined);

  return {
    conversationsDelete,
    conversationsNotice,

    requestDeleteConversations() {
      batch(() => {
        conversationsDelete.value = 'confirming';
        conversationsNotice.value = undefined;
      });
    },

    cancelDeleteConversations() {
      if (conversationsDelete.value === 'confirming') conversationsDelete.value = 'idle';
    },

    async confirmDeleteConversations() {
      if (conversationsDelete.value !== 'confirming') return;
      batch(() => {
        conversationsDelete.value = 'deleting';
        conversationsNotice.value = { tone: 'info', text: 'Deleting…' };
      });
      const reply = await client.deleteConversations();
      batch(() => {
        conversationsDelete.value = 'idle';
        conversationsNotice.value = reply.ok
          ? { tone: 'success', text: 'All conversations were deleted, here and in open side panels.' }
          : { tone: 'error', text: `The conversations were not deleted: ${reply.message}` };
      });
    },
  };
}
