import type { AuditResult } from './audit-types';

/** Whose call a result came from, as the audit's findings say it. */
export function resultCallerWords(by: AuditResult['by']): string {
  if (by === 'person') return 'of a call by hand';
  if (by === 'client') return 'of a desktop agent’s call';
  return 'of an agent’s call';
}
