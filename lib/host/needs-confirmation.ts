import type { ToolAnnotations } from '../agent/types';
import type { ConfirmationPolicy } from '../storage/settings';

/**
 * Whether a call must wait for the person's Allow before it runs, under the confirmation policy. The annotations
 * are the called tool's own (its frame's), never another tool's of the same name. A tool the page marks
 * consequential asks every time: no grant and no policy skips it. Otherwise a grant ("Always on this site") skips
 * the question. Annotations come from the page and may be missing or malformed: only a literal `true` counts, so a
 * page cannot dodge 'non-read-only' with a truthy string.
 */
export function needsConfirmation(policy: ConfirmationPolicy, annotations: ToolAnnotations | undefined, granted: boolean): boolean {
  if (!mayAlwaysAllow(annotations)) return true;
  if (granted) return false;
  switch (policy) {
    case 'never':
    case 'consequential':
      return false;
    default:
      return annotations?.readOnlyHint !== true;
  }
}

/**
 * Whether "Always on this site" may be offered and stored for a tool: not for one the page marks consequential
 * (a truthy non-boolean counts as a mark here, the careful reading), which asks every time.
 */
export function mayAlwaysAllow(annotations: ToolAnnotations | undefined): boolean {
  return !annotations?.consequentialHint;
}
