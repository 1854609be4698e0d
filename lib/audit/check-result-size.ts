import { resultCallerWords } from './result-caller-words';
import type { AuditFinding, AuditInput, AuditResult } from './audit-types';
import { findingFor } from './finding-for';
import { WEBMCP_BUDGETS } from './webmcp-budgets';

/**
 * Results over Chrome's 1,500-character budget, from calls run by hand or by the agent (evals, chats): one finding
 * per tool, for its longest result.
 */
export function checkResultSize(input: AuditInput): AuditFinding[] {
  const longest = new Map<string, { length: number; truncated: boolean; by: AuditResult['by'] }>();
  for (const result of input.results ?? []) {
    const seen = longest.get(result.tool);
    const length = result.output.length;
    if (!seen || length > seen.length || (result.truncated && !seen.truncated))
      longest.set(result.tool, { length, truncated: result.truncated, by: result.by });
  }
  const findings: AuditFinding[] = [];
  for (const [name, result] of longest) {
    if (result.length <= WEBMCP_BUDGETS.toolOutput && !result.truncated) continue;
    const tool = input.tools.find((t) => t.name === name);
    if (!tool) continue;
    findings.push(
      findingFor(tool, {
        rule: 'result/too-long',
        severity: 'warning',
        field: 'result',
        message: `A result ${resultCallerWords(result.by)} was ${result.truncated ? `over ${result.length}` : result.length} characters long; Chrome's budget is ${WEBMCP_BUDGETS.toolOutput}.`,
        why: 'Every result goes back into the prompt: long ones push out the conversation on small models (the on-device agent keeps 1,500 characters of earlier results) and run into agents’ safeguards.',
        fix: 'Return what the agent needs for its next step: a page of results with a total, ids and the few fields that matter.',
      }),
    );
  }
  return findings;
}
