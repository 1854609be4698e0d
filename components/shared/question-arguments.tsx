import type { ReadonlySignal } from '@preact/signals';
import type { PendingConfirmation } from '../../lib/messaging/agent-messages';

/** What a question needs to reveal its secret arguments (the panel's store). */
export interface SecretReveal {
  /** The clear arguments of the open questions the person revealed, by question id. */
  revealed: ReadonlySignal<Readonly<Record<string, string>>>;
  /** Asks the host for the clear arguments of that question only. */
  reveal(confirmationId: string): void;
  /** Masks that question's arguments again. */
  hide(confirmationId: string): void;
}

/**
 * The arguments a question shows ("What pay would receive"), as the host sent them: what the tool's schema marks
 * secret is masked. Where something was masked, a Reveal button asks the host for the clear arguments of this
 * question only, and Hide masks them again; nothing is revealed without the person's click, and a revealed value
 * never shows in another question.
 */
export function QuestionArguments({
  confirmation,
  toolName,
  reveal,
}: {
  confirmation: PendingConfirmation;
  toolName: string;
  reveal?: SecretReveal;
}) {
  if (confirmation.input === undefined) return null;
  const clear = confirmation.masked ? reveal?.revealed.value[confirmation.id] : undefined;
  return (
    <>
      <p class="confirm-input-label">What {toolName} would receive:</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard (axe scrollable-region-focusable). */}
      <pre tabIndex={0} title={`Arguments ${toolName} would receive`}>
        {clear ?? confirmation.input}
      </pre>
      {confirmation.masked && reveal && (
        <p class="confirm-secret">
          {clear === undefined ? 'Values the site marks secret are hidden.' : 'Secret values are shown in this question.'}{' '}
          <button
            type="button"
            class="link"
            onClick={() => (clear === undefined ? reveal.reveal(confirmation.id) : reveal.hide(confirmation.id))}
          >
            {clear === undefined ? 'Reveal secret values' : 'Hide secret values'}
          </button>
        </p>
      )}
    </>
  );
}
