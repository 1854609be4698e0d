import type { AgentRunState } from '../agent/reduce-stream-part';
import type { RunOutcome } from '../messaging/agent-messages';
import { SITE_CHANGED_RUN_ERROR } from './create-run-guard';

/**
 * How an ended run went, as the panel shows it under the conversation: a run whose tab reached another site says so
 * (whatever the adapter said), else the adapter's error or its finish reason.
 *
 * @param state The run's state once it ended.
 * @param crossed The sites the tab went from and to, when it left the run's site (the run guard's `crossed()`).
 */
export function runOutcomeOf(state: AgentRunState, crossed: { from: string; to: string } | undefined): RunOutcome {
  return crossed
    ? { reason: 'error', error: SITE_CHANGED_RUN_ERROR(crossed.from, crossed.to), code: 'site_changed' }
    : state.status === 'error'
      ? { reason: 'error', error: state.error?.message ?? 'The run failed.', ...(state.error?.code ? { code: state.error.code } : {}) }
      : { reason: state.finishReason ?? 'stop' };
}
