import type { AuditFinding, AuditReport, AuditSeverity } from './audit-types';
import { summarizeAudit } from './summarize-audit';
import { WEBMCP_BUDGETS_SOURCE } from './webmcp-budgets';

const HEADINGS: Record<AuditSeverity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

/**
 * The audit as Markdown, for the author to keep or attach to an issue. Page text (tool names, fields, quoted
 * descriptions) is escaped so it reads as text and never as a link, an image or HTML.
 */
export function auditToMarkdown(report: AuditReport): string {
  const lines = [`# WebMCP audit${report.page.title ? `: ${escapeMarkdown(report.page.title)}` : ''}`, ''];
  if (report.page.url) lines.push(`- Page: ${code(report.page.url)}`);
  lines.push(`- Audited: ${report.auditedAt}`, `- ${escapeMarkdown(summarizeAudit(report))}`, '');
  if (report.findings.length === 0) lines.push('No findings.', '');
  for (const severity of ['error', 'warning', 'info'] as const) {
    const findings = report.findings.filter((f) => f.severity === severity);
    if (findings.length === 0) continue;
    lines.push(`## ${HEADINGS[severity]} (${findings.length})`, '');
    for (const finding of findings) lines.push(...findingLines(finding), '');
  }
  lines.push(`Character budgets: Chrome's WebMCP guidance, ${WEBMCP_BUDGETS_SOURCE}`);
  return `${lines.join('\n').trimEnd()}\n`;
}

function findingLines(finding: AuditFinding): string[] {
  return [
    `### ${finding.tool ? `${code(finding.tool)}: ` : ''}${finding.rule}`,
    '',
    ...(finding.field ? [`- Field: ${code(finding.field)}`] : []),
    ...(finding.origin !== undefined || finding.frameId !== undefined
      ? [
          `- Frame: ${finding.frameId === 0 ? 'top frame' : `frame ${finding.frameId ?? '?'}`}${finding.origin ? `, ${code(finding.origin)}` : ''}`,
        ]
      : []),
    `- What: ${escapeMarkdown(finding.message)}`,
    `- Why: ${escapeMarkdown(finding.why)}`,
    `- Fix: ${escapeMarkdown(finding.fix)}`,
  ];
}

/** Text with every character Markdown could read as markup escaped, on one line. */
function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

/** Page text as an inline code span that no backtick in it can close early. */
function code(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}
