import type { ToolCallState } from '../../lib/agent/types';
import { OUTCOME_UNKNOWN_NOTE } from '../../lib/agent/tool-error-codes';

/** A call's state in the words the panel shows; a failed call that may still have acted says so. */
export function toolStateWords(state: ToolCallState, error?: string): string {
  switch (state) {
    case 'running':
      return 'running';
    case 'awaiting-confirmation':
      return 'waiting for you';
    case 'done':
      return 'done';
    case 'error':
      return error?.includes(OUTCOME_UNKNOWN_NOTE) ? 'outcome unknown' : 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}
