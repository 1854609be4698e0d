import type { ToolAnnotations } from '../agent/types';
import type { ConfirmationPolicy } from './settings';

/**
 * Whether a tool call must wait for the person's Allow under the policy. A grant ("Always on this site")
 * lifts the question for that tool on that site, whatever the policy.
 */
export function requiresConfirmation(
  policy: ConfirmationPolicy,
  annotations: ToolAnnotations | undefined,
  granted = false,
): boolean {
  if (granted || policy === 'never') return false;
  if (policy === 'non-read-only') return annotations?.readOnlyHint !== true;
  return annotations?.consequentialHint === true;
}
