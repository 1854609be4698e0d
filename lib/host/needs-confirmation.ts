import type { ToolAnnotations } from '../agent/types';
import type { ConfirmationPolicy } from '../storage/settings';

/**
 * Whether a call must wait for the person's Allow before it runs, under the confirmation policy. A grant
 * ("Always on this site") skips the question. Annotations come from the page and may be missing or malformed: only
 * a literal `true` counts, so a page cannot dodge 'non-read-only' with a truthy string.
 */
export function needsConfirmation(
  policy: ConfirmationPolicy,
  annotations: ToolAnnotations | undefined,
  granted: boolean,
): boolean {
  if (granted) return false;
  switch (policy) {
    case 'never':
      return false;
    case 'non-read-only':
      return annotations?.readOnlyHint !== true;
    default:
      return annotations?.consequentialHint === true;
  }
}
