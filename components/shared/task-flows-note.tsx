import type { TaskFlow } from '../../lib/messaging/task-tabs';
import { originLabel } from '../../lib/shared/origin-label';

/**
 * The crossings between sites a question is about (docs/security.md, "Tasks across tabs"): what was read on one site
 * would go to another's tool. Both sites are named, and what "Allow for this task" would allow.
 */
export function TaskFlowsNote({ flows }: { flows: readonly TaskFlow[] }) {
  const words = flows.map((f) => `${originLabel(f.from)} → ${originLabel(f.to)}`).join(', ');
  return (
    <p class="confirm-flows">
      This call would carry what the agent read on {unique(flows.map((f) => originLabel(f.from))).join(', ')} to{' '}
      {unique(flows.map((f) => originLabel(f.to))).join(', ')}. “Allow for this task” lets {words} go unasked until this conversation ends.
    </p>
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
