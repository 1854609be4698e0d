import type { Ref } from 'preact';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';

/**
 * The answers to a confirmation question, as the chat's call card and the inspector's by-hand run both offer
 * them: Allow once, Allow for this task (a crossing between a task's sites), Always on this site (only where the
 * tool may be granted), Deny. Answers go by the host's id.
 */
export function ConfirmActions({
  confirmation,
  onConfirm,
  allowRef,
}: {
  confirmation: PendingConfirmation;
  onConfirm: (confirmationId: string, answer: ConfirmationAnswer) => void;
  /** The Allow once button, for a view that brings focus to a new question. */
  allowRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <div class="confirm-actions">
      <button type="button" class="primary" ref={allowRef} onClick={() => onConfirm(confirmation.id, 'allow-once')}>
        Allow once
      </button>
      {/* Offered by the host only for a crossing between a task's sites; it lasts until the conversation ends. */}
      {confirmation.allowTask && confirmation.allowTask.length > 0 && (
        <button type="button" onClick={() => onConfirm(confirmation.id, 'allow-task')}>
          Allow for this task
        </button>
      )}
      {/* A consequential tool asks every time: there is no "Always" to offer. */}
      {confirmation.allowAlways && (
        <button type="button" onClick={() => onConfirm(confirmation.id, 'allow-always')}>
          Always on this site
        </button>
      )}
      <button type="button" class="danger" onClick={() => onConfirm(confirmation.id, 'deny')}>
        Deny
      </button>
    </div>
  );
}
