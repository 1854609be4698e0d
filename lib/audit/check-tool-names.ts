import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, pageName, quote } from './finding-for';
import { WEBMCP_BUDGETS } from './webmcp-budgets';

/** What every provider accepts as a tool name (lib/cloud/to-provider-tool-name.ts). */
const PROVIDER_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Tool names an agent can use: within Chrome's 30-character budget, and the same for the model as on the page (a
 * name with characters providers refuse, or one another frame's tool already has, reaches the model renamed).
 */
export function checkToolNames(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    const name = pageName(tool);
    if (name.length > WEBMCP_BUDGETS.toolName) {
      findings.push(
        findingFor(tool, {
          rule: 'name/too-long',
          severity: 'warning',
          field: 'name',
          message: `The name is ${name.length} characters long; Chrome's budget is ${WEBMCP_BUDGETS.toolName}.`,
          why: 'Long names cost every prompt tokens and run into agents’ safeguards; a short verb_noun name is also easier to pick.',
          fix: `Shorten it to ${WEBMCP_BUDGETS.toolName} characters or fewer, as a verb and a noun (search_products, book_table).`,
        }),
      );
    }
    if (tool.originalName !== undefined && tool.originalName !== tool.name) {
      const clash = PROVIDER_SAFE.test(tool.originalName);
      findings.push(
        findingFor(tool, {
          rule: 'name/renamed',
          severity: 'info',
          field: 'name',
          message: clash
            ? `Another tool on this page is also called ${name}: the model sees this one as ${quote(tool.name)}.`
            : `The name has characters model providers refuse: the model sees it as ${quote(tool.name)}.`,
          why: 'The model, its calls and the timeline use the other name, which says less than the one you chose.',
          fix: clash
            ? 'Give each tool on the page, in every frame, its own name.'
            : 'Use only letters, digits, "_" and "-", at most 64 characters.',
        }),
      );
    }
  }
  return findings;
}
