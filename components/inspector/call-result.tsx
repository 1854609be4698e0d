import type { CallRecord } from '../../lib/messaging/call-record';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';
import { ConfirmActions } from '../shared/confirm-actions';

const STATE_WORDS: Record<CallRecord['state'], string> = {
  'awaiting-confirmation': 'Waiting for your answer',
  running: 'Running…',
  done: 'Done',
  error: 'Failed',
  cancelled: 'Cancelled',
};

/** A by-hand call's outcome: its confirmation while it waits, then its output, error code and duration. */
export function CallResult({
  record,
  confirmation,
  onConfirm,
}: {
  record: CallRecord;
  confirmation?: PendingConfirmation;
  /** Answers by the host's id for the question. */
  onConfirm: (confirmationId: string, answer: ConfirmationAnswer) => void;
}) {
  return (
    <div class="call-result" data-state={record.state} role="status" aria-live="polite">
      <p class="call-result-head">
        <strong>{STATE_WORDS[record.state]}</strong>
        {record.errorCode && <code class="error-code">{record.errorCode}</code>}
        {record.durationMs !== undefined && <span class="muted"> in {record.durationMs} ms</span>}
      </p>
      {confirmation && (
        <fieldset class="confirm">
          <legend>{confirmation.prompt}</legend>
          <ConfirmActions confirmation={confirmation} onConfirm={onConfirm} />
        </fieldset>
      )}
      {record.output !== undefined && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard (axe scrollable-region-focusable).
        <pre tabIndex={0} title={`Output of ${record.tool}`}>
          {record.output}
          {record.outputTruncated ? '\n…' : ''}
        </pre>
      )}
    </div>
  );
}
