import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { looksConsequential } from './looks-consequential';
import { CHANGING_VERBS, nameWords, sentenceVerbs } from './tool-words';

/** `readOnlyHint` on a tool whose name or description says it changes something. */
export function checkReadOnlyHint(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.annotations?.readOnlyHint !== true) continue;
    const name = nameWords(tool.originalName ?? tool.name);
    const verb = CHANGING_VERBS.has(name[0]) ? `the name ${quote(tool.originalName ?? tool.name)}` : undefined;
    const said = sentenceVerbs(quote(tool.description, 2_000)).find((v) => CHANGING_VERBS.has(v));
    const evidence = verb ?? (said ? `“${said}” in the description` : looksConsequential(tool));
    if (!evidence) continue;
    findings.push(
      findingFor(tool, {
        rule: 'annotation/read-only-changes',
        severity: 'error',
        field: 'annotations.readOnlyHint',
        message: `It is marked readOnlyHint, but it looks like it changes something (${evidence}).`,
        why: 'Agents run read-only tools without asking the person: this one would change things no one allowed.',
        fix: 'Remove readOnlyHint (and add consequentialHint if it spends, sends, deletes or books), or rename and describe it as the read it is.',
      }),
    );
  }
  return findings;
}
