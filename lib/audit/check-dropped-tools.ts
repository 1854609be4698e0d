import type { AuditFinding, AuditInput } from './audit-types';
import { quote } from './finding-for';

/** Tools the page has that the agent does not get: frames of other sites the page did not delegate, per-tab caps. */
export function checkDroppedTools(input: AuditInput): AuditFinding[] {
  return (input.dropped ?? []).map((dropped) => ({
    rule: dropped.reason === 'not-delegated' ? 'frame/not-delegated' : 'frame/over-cap',
    severity: 'info' as const,
    message: quote(dropped.note, 300),
    why:
      dropped.reason === 'not-delegated'
        ? 'A frame from another site serves tools only when the page hands them over: until then no agent sees them.'
        : 'Past the caps, tools are left out so a page cannot flood the prompt.',
    fix:
      dropped.reason === 'not-delegated'
        ? 'If the frame’s tools should be used here, delegate them from the page (see the README, Safe on the pages it runs on).'
        : 'Offer fewer tools at a time: register a view’s tools when it shows, and unregister them when it goes.',
  }));
}
