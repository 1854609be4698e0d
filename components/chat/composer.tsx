import type { ChatStore } from './chat-store';

interface ComposerProps {
  store: ChatStore;
}

/** The message box: Enter sends, Shift+Enter breaks the line; Stop replaces Send while a reply runs. */
export function Composer({ store }: ComposerProps) {
  const running = store.tab.value?.running ?? false;
  const submit = (event: Event) => {
    event.preventDefault();
    store.send();
  };
  const waiting = store.waiting.value;
  return (
    <form class="composer" onSubmit={submit}>
      {waiting !== undefined && (
        <p class="composer-waiting" role="status">
          Sending as soon as the agent is ready: “{waiting.length > 80 ? `${waiting.slice(0, 80)}…` : waiting}”
        </p>
      )}
      <textarea
        aria-label="Message"
        rows={2}
        placeholder={running ? 'The agent is working… (Esc stops it)' : 'Ask the agent to do something on this page'}
        value={store.draft.value}
        onInput={(e) => {
          store.draft.value = (e.currentTarget as HTMLTextAreaElement).value;
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            store.send();
          }
        }}
      />
      {running ? (
        <button type="button" class="stop" onClick={() => store.stop()} aria-keyshortcuts="Escape">
          Stop
        </button>
      ) : (
        <button type="submit" class="primary send" disabled={!store.canSend.value}>
          Send
        </button>
      )}
    </form>
  );
}
