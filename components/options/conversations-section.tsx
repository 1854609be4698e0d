import { NoticeText } from './notice-text';
import type { OptionsState } from './options-state';

// The button the person clicked is replaced by the question: keep focus there, on the harmless answer.
const focusOnMount = (element: HTMLButtonElement | null) => element?.focus();

/** How long conversations are kept, and "Delete all conversations" (with a confirm step and a result notice). */
export function ConversationsSection({ state }: { state: OptionsState }) {
  const step = state.conversationsDelete.value;
  return (
    <section class="card" aria-labelledby="conversations-title">
      <h2 id="conversations-title">Conversations</h2>
      <p class="hint" id="conversations-hint">
        Each tab’s conversation, with what its tools returned, is kept in this browser only while the tab is open. Closing a tab deletes it;
        a tab closed with its window is kept for the browser to restore, and deleted at the next start after that if nothing restored it.
      </p>
      {step === 'idle' ? (
        <div class="model-actions">
          <button type="button" class="button" aria-describedby="conversations-hint" onClick={() => state.requestDeleteConversations()}>
            Delete all conversations
          </button>
        </div>
      ) : (
        <div class="confirm-row">
          <span id="conversations-confirm">Delete every conversation, in every tab? This cannot be undone.</span>
          <button
            type="button"
            class="button button--danger"
            disabled={step === 'deleting'}
            onClick={() => void state.confirmDeleteConversations()}
          >
            Delete all
          </button>
          <button
            type="button"
            class="button"
            ref={focusOnMount}
            aria-describedby="conversations-confirm"
            disabled={step === 'deleting'}
            onClick={() => state.cancelDeleteConversations()}
          >
            Keep
          </button>
        </div>
      )}
      <NoticeText notice={state.conversationsNotice.value} />
    </section>
  );
}
