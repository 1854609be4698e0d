import type { TaskTabLeft } from '../../lib/messaging/task-tabs';

/** The newest tab that left the conversation's task, and why, until the person dismisses it or the next replaces it. */
export function TaskLeftNotice({ left, onDismiss }: { left: TaskTabLeft | undefined; onDismiss: () => void }) {
  if (!left) return null;
  return (
    <p class="notice task-left" role="status">
      {left.message}{' '}
      <button type="button" class="link" onClick={onDismiss}>
        Dismiss
      </button>
    </p>
  );
}
