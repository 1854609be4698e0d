import type { ToolCallState } from '../../lib/agent/types';

/** A call's state in the words the panel shows. */
export function toolStateWords(state: ToolCallState): string {
  switch (state) {
    case 'running':
      return 'running';
    case 'awaiting-confirmation':
      return 'waiting for you';
    case 'done':
      return 'done';
    case 'error':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
  }
}
