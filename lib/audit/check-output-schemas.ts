import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor } from './finding-for';
import { lintJsonSchema } from './lint-json-schema';

/**
 * Output schema validity, per tool that declares one: the same checks as for inputs (lintJsonSchema), except that
 * an output may be any JSON value at its top level. An outputSchema that is not a JSON object never reaches the
 * panel (lib/isolated-world/read-tool-entry.ts drops it), so it cannot be reported here.
 */
export function checkOutputSchemas(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.outputSchema === undefined) continue;
    for (const issue of lintJsonSchema(tool.outputSchema, 'outputSchema')) {
      findings.push(
        findingFor(tool, {
          rule: `output-schema/${issue.kind}`,
          severity: issue.severity,
          field: issue.path,
          message: issue.message,
          why: issue.why,
          fix: issue.fix,
        }),
      );
    }
  }
  return findings;
}
