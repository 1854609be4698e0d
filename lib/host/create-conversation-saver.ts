import type { ConversationStore } from '../storage/conversations';
import { createBatchedTask } from './create-batched-task';

/** The record a tab's conversation is saved as. */
type SavedConversation = Parameters<ConversationStore['save']>[1];

interface ConversationSaverDeps {
  tabId: number;
  store: Pick<ConversationStore, 'save'>;
  /** How long a change waits for others before they are written together. */
  delayMs: number;
  /** The conversation as it is now: read when a write starts, not when it reaches the store. */
  conversation: () => SavedConversation;
}

/** Saves one tab's conversation. */
interface ConversationSaver {
  /** Writes within `delayMs`, together with every other change until then. */
  schedule(): void;
  /** Writes now (a write that was due is dropped: this one covers it). Resolves once written; never rejects. */
  flush(): Promise<void>;
  /** Resolves once every write started so far has ended. */
  settled(): Promise<void>;
}

/**
 * Creates a tab's conversation saver: writes are batched (a streaming run changes the conversation with every part)
 * and go to the store one after the other, in the order they started. A write that fails is dropped, and the next
 * one writes the whole conversation again.
 */
export function createConversationSaver(deps: ConversationSaverDeps): ConversationSaver {
  let saving: Promise<void> = Promise.resolve();
  const write = () => {
    const value = deps.conversation();
    saving = saving.then(() => deps.store.save(deps.tabId, value)).catch(() => undefined);
    return saving;
  };
  const batch = createBatchedTask(deps.delayMs, () => void write());
  return {
    schedule: () => batch.schedule(),
    flush: () => {
      batch.cancel();
      return write();
    },
    settled: () => saving,
  };
}
