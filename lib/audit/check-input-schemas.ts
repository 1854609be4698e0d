import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { lintJsonSchema } from './lint-json-schema';

/**
 * Input schema validity, per tool: a schema the extension had to refuse (it is replaced by an empty one, so the
 * model sees no parameters), and everything lintJsonSchema finds in the rest.
 */
export function checkInputSchemas(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.schemaError) {
      findings.push(
        findingFor(tool, {
          rule: 'input-schema/refused',
          severity: 'error',
          field: 'inputSchema',
          message: `The inputSchema was refused: ${quote(tool.schemaError, 200)}.`,
          why: 'The agent replaces it with an empty schema: the model is told the tool takes no arguments, and every call it makes lacks them.',
          fix: 'Declare inputSchema as a JSON Schema object: { "type": "object", "properties": { … }, "required": [ … ] }.',
        }),
      );
      continue;
    }
    for (const issue of lintJsonSchema(tool.inputSchema, 'inputSchema')) {
      findings.push(
        findingFor(tool, {
          rule: `input-schema/${issue.kind}`,
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
