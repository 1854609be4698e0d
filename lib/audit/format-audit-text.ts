import type { AuditReport } from './audit-types';
import { summarizeAudit } from './summarize-audit';

/**
 * The audit as plain text for a terminal (`npm run audit`): a heading, one block per finding, and the summary.
 * Page text in it went through cleanPageText, so it carries no control characters (no terminal escapes).
 */
export function formatAuditText(report: AuditReport): string {
  const lines = [`WebMCP audit of ${report.page.url ?? 'the page'}${report.page.title ? ` (“${report.page.title}”)` : ''}`, ''];
  for (const finding of report.findings) {
    const where = [finding.tool, finding.field].filter(Boolean).join(' › ');
    lines.push(`${finding.severity.toUpperCase().padEnd(8)}${finding.rule}${where ? `  ${where}` : ''}`);
    if (finding.frameId) lines.push(`        in frame ${finding.frameId}${finding.origin ? ` (${finding.origin})` : ''}`);
    lines.push(`        ${finding.message}`, `        Why: ${finding.why}`, `        Fix: ${finding.fix}`, '');
  }
  if (report.findings.length === 0) lines.push('No findings.', '');
  lines.push(summarizeAudit(report));
  return lines.join('\n');
}
