import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { nameWords, textWords } from './tool-words';
import { WEBMCP_BUDGETS } from './webmcp-budgets';

/**
 * Tool descriptions an agent can choose by: present, more than one word, saying more than the name does, and within
 * Chrome's 500-character budget.
 */
export function checkDescriptions(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    const description = quote(tool.description, 10_000);
    const words = textWords(description);
    if (words.length === 0) {
      findings.push(
        findingFor(tool, {
          rule: 'description/missing',
          severity: 'error',
          field: 'description',
          message: 'The tool has no description.',
          why: 'Models choose tools by their descriptions: without one, this tool is picked by its name alone, or never.',
          fix: tool.declarative
            ? 'Add tooldescription="…" to the form: what it does and when to use it.'
            : 'Describe what the tool does and when to use it, in a sentence or two ("Search the catalog by words. Use it to find a product by name.").',
        }),
      );
      continue;
    }
    const own = new Set(nameWords(tool.originalName ?? tool.name));
    if (words.length === 1) {
      findings.push(
        findingFor(tool, {
          rule: 'description/one-word',
          severity: 'warning',
          field: 'description',
          message: `The description is one word: “${quote(description, 40)}”.`,
          why: 'One word does not tell a model what the tool does, what it returns, or when to use it rather than another.',
          fix: 'Say what the tool does and when to use it, in a sentence or two.',
        }),
      );
    } else if (words.every((word) => own.has(word))) {
      findings.push(
        findingFor(tool, {
          rule: 'description/repeats-name',
          severity: 'warning',
          field: 'description',
          message: `The description only repeats the name: “${quote(description, 60)}”.`,
          why: 'The model learns nothing from it that the name did not say: not what the tool returns, nor when to use it.',
          fix: 'Say what the tool does, what it returns and when to use it.',
        }),
      );
    }
    if (description.length > WEBMCP_BUDGETS.toolDescription) {
      findings.push(
        findingFor(tool, {
          rule: 'description/too-long',
          severity: 'warning',
          field: 'description',
          message: `The description is ${description.length} characters long; Chrome's budget is ${WEBMCP_BUDGETS.toolDescription}.`,
          why: 'Every tool’s description is in every prompt: long ones crowd small models’ context and run into agents’ safeguards.',
          fix: 'Keep what the tool does and when to use it; leave out the parameters (the schema says them) and how it works inside.',
        }),
      );
    }
  }
  return findings;
}
