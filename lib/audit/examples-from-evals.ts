import type { EvalCase, ExpectedCallNode } from '../evals/eval-types';
import type { AuditExample } from './audit-types';
import { quote } from './finding-for';

/** The requests of eval cases with the tool each expects first, for the ranking checks (checkConfusableTools). */
export function examplesFromEvals(cases: readonly EvalCase[]): AuditExample[] {
  const examples: AuditExample[] = [];
  for (const [index, evalCase] of cases.entries()) {
    const last = evalCase.messages.at(-1);
    if (last?.role !== 'user' || last.type !== 'message' || !last.content.trim()) continue;
    const tool = firstCall(evalCase.expectedCall ?? []);
    if (!tool) continue;
    examples.push({ tool, request: last.content, source: `eval case “${quote(evalCase.name ?? `${index + 1}`, 80)}”` });
  }
  return examples;
}

/** The function name of the first call a list of expected nodes names (the first member of a group). */
function firstCall(nodes: readonly ExpectedCallNode[]): string | undefined {
  const first = nodes[0];
  if (!first) return undefined;
  if ('functionName' in first) return first.functionName;
  return firstCall('unordered' in first ? first.unordered : first.ordered);
}
