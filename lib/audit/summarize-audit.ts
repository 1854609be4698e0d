import type { AuditReport } from './audit-types';

/** One line: what was looked at and what was found ("5 tools in 1 frame, 3 forms, 2 results: 0 errors, 1 warning, 2 info"). */
export function summarizeAudit(report: AuditReport): string {
  const { looked, counts } = report;
  const parts = [`${plural(looked.tools, 'tool')} in ${plural(looked.frames, 'frame')}`];
  if (looked.forms !== undefined) parts.push(plural(looked.forms, 'form'));
  parts.push(plural(looked.results, 'result'));
  if (looked.examples) parts.push(plural(looked.examples, 'eval request'));
  return `${parts.join(', ')}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
