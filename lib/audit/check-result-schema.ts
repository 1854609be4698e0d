import { resultCallerWords } from './result-caller-words';
import { validateArgs } from '../agent/validate-args';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';

/**
 * Results that do not match the tool's outputSchema: the result text read as JSON and checked with the agent's own
 * validator. One finding per tool, for its first result that fails. A result the timeline kept only in part cannot
 * be checked, and is skipped.
 */
export function checkResultSchema(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const done = new Set<string>();
  for (const result of input.results ?? []) {
    if (done.has(result.tool) || result.truncated) continue;
    const tool = input.tools.find((t) => t.name === result.tool);
    if (!tool?.outputSchema) continue;
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(result.output);
    } catch {
      problem = `the result is not JSON (it begins “${quote(result.output, 40)}”)`;
    }
    if (!problem) {
      const verdict = validateArgs(tool.outputSchema, value);
      if (verdict.ok) continue;
      problem = verdict.message;
    }
    done.add(result.tool);
    findings.push(
      findingFor(tool, {
        rule: 'result/schema-mismatch',
        severity: 'error',
        field: 'outputSchema',
        message: `A result ${resultCallerWords(result.by)} does not match the outputSchema: ${problem}.`,
        why: 'Agents that trust the outputSchema read the result wrong, or drop it.',
        fix: 'Return what the outputSchema declares (as JSON), or correct the schema.',
      }),
    );
  }
  return findings;
}
