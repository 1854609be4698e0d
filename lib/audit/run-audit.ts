import { AUDIT_SEVERITIES, type AuditFinding, type AuditInput, type AuditReport, type AuditSeverity } from './audit-types';
import { checkConfusableTools } from './check-confusable-tools';
import { checkConsequentialHint } from './check-consequential-hint';
import { checkDebuggingTools } from './check-debugging-tools';
import { checkDescriptions } from './check-descriptions';
import { checkDroppedTools } from './check-dropped-tools';
import { checkFormCoverage } from './check-form-coverage';
import { checkFormFields } from './check-form-fields';
import { checkInputSchemas } from './check-input-schemas';
import { checkLegacyApi } from './check-legacy-api';
import { checkNameLookalikes } from './check-name-lookalikes';
import { checkNoTools } from './check-no-tools';
import { checkOnDeviceFit } from './check-on-device-fit';
import { checkOutputSchemas } from './check-output-schemas';
import { checkParameters } from './check-parameters';
import { checkReadOnlyHint } from './check-read-only-hint';
import { checkReadOnlyMissing } from './check-read-only-missing';
import { checkResultSchema } from './check-result-schema';
import { checkResultSize } from './check-result-size';
import { checkToolNames } from './check-tool-names';
import { checkUntrustedContentHint } from './check-untrusted-content-hint';
import { quote } from './finding-for';

/** Every check, in the order docs/audit.md lists them. */
const CHECKS: readonly ((input: AuditInput) => AuditFinding[])[] = [
  checkNoTools,
  checkLegacyApi,
  checkInputSchemas,
  checkOutputSchemas,
  checkToolNames,
  checkNameLookalikes,
  checkDescriptions,
  checkParameters,
  checkConsequentialHint,
  checkUntrustedContentHint,
  checkReadOnlyHint,
  checkReadOnlyMissing,
  checkDebuggingTools,
  checkConfusableTools,
  checkOnDeviceFit,
  checkFormCoverage,
  checkFormFields,
  checkResultSize,
  checkResultSchema,
  checkDroppedTools,
];

/**
 * The audit of one page: every check over what the panel knows of it, findings sorted most serious first, then by
 * tool and rule, and counted. Pure and synchronous; the panel gathers `input` (create-audit-state.ts).
 */
export function runAudit(input: AuditInput, page: { url?: string; title?: string } = {}, now: Date = new Date()): AuditReport {
  const findings = CHECKS.flatMap((check) => check(input));
  const rank = (severity: AuditSeverity) => AUDIT_SEVERITIES.indexOf(severity);
  findings.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      (a.tool ?? '\uffff').localeCompare(b.tool ?? '\uffff') ||
      a.rule.localeCompare(b.rule) ||
      (a.field ?? '').localeCompare(b.field ?? ''),
  );
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  const frames = new Set(input.tools.map((tool) => tool.frameId ?? 0));
  for (const frame of input.forms ?? []) frames.add(frame.frameId);
  return {
    format: 'webmcp-agent-audit-report',
    page: { ...(page.url ? { url: quote(page.url, 2_000) } : {}), ...(page.title ? { title: quote(page.title, 200) } : {}) },
    auditedAt: now.toISOString(),
    looked: {
      tools: input.tools.length,
      frames: frames.size,
      ...(input.forms ? { forms: input.forms.reduce((n, frame) => n + frame.forms.length, 0) } : {}),
      results: input.results?.length ?? 0,
      examples: input.examples?.length ?? 0,
    },
    counts,
    findings,
  };
}

/** Whether a severity is more serious than `max` (the CLI's --max-severity: findings above it fail the run). */
export function isAbove(severity: AuditSeverity, max: AuditSeverity): boolean {
  return AUDIT_SEVERITIES.indexOf(severity) < AUDIT_SEVERITIES.indexOf(max);
}
