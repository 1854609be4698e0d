import type { AgentErrorCode } from '../../lib/agent/types';
import type { RunOutcome } from '../../lib/messaging/agent-messages';
import { pointsToOptions } from './adapter-status-card';

interface RunOutcomeNoticeProps {
  outcome: RunOutcome;
  onRetry: () => void;
  onOpenOptions: () => void;
}

/** What to do next, for each error code. */
function nextStepFor(code: AgentErrorCode | undefined, error = ''): string {
  switch (code) {
    case 'rate_limited':
      return 'The provider is limiting requests. Wait a minute, then press Retry.';
    case 'network':
      return 'The provider could not be reached. Check your connection (or that your local model server is running), then press Retry.';
    case 'bad_request':
      return 'The provider turned the request down. Check the model in the settings, or start a New chat if the conversation has grown long.';
    case 'site_changed':
      return 'Press Retry to go on here: this site’s tools will ask before each call. Or start a New chat.';
    case 'chat_disabled':
      return 'Chat is turned off for this agent. Check the settings, or switch the Agent control to the other mode.';
    default:
      return pointsToOptions(error) ? 'Fix it in the settings, then press Retry.' : 'Press Retry to try again.';
  }
}

/** How the last run ended, when it did not end normally: a stop or an error, explained, with Retry. */
export function RunOutcomeNotice({ outcome, onRetry, onOpenOptions }: RunOutcomeNoticeProps) {
  if (outcome.reason === 'stop' || outcome.reason === 'max-steps') return null;
  const stopped = outcome.reason === 'aborted';
  const error = outcome.error ?? '';
  return (
    <section class={`outcome ${stopped ? 'stopped' : 'error'}`} aria-labelledby="outcome-title">
      <h2 id="outcome-title">{stopped ? 'Stopped' : 'Something went wrong'}</h2>
      {stopped ? <p>You stopped the reply. Press Retry to continue where it left off.</p> : <p>{error}</p>}
      {!stopped && <p class="next-step">{nextStepFor(outcome.code, error)}</p>}
      <div class="row">
        <button type="button" class="primary" onClick={onRetry}>
          Retry
        </button>
        {!stopped && pointsToOptions(error) && (
          <button type="button" onClick={onOpenOptions}>
            Open settings
          </button>
        )}
      </div>
    </section>
  );
}
