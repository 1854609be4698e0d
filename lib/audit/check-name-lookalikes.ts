import type { PanelTool } from '../messaging/agent-messages';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, pageName } from './finding-for';

/**
 * Tools whose names differ only in case or punctuation (search_products, searchProducts, Search-Products): one
 * finding per such group, on its first tool.
 */
export function checkNameLookalikes(input: AuditInput): AuditFinding[] {
  const groups = new Map<string, PanelTool[]>();
  for (const tool of input.tools) {
    const key = pageName(tool)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]/gu, '');
    if (!key) continue;
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  const findings: AuditFinding[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const names = group.map((tool) => `${pageName(tool)}${tool.frameId ? ` (frame ${tool.frameId})` : ''}`);
    findings.push(
      findingFor(group[0], {
        rule: 'name/lookalike',
        severity: 'warning',
        field: 'name',
        message: `${names.join(', ')} differ only in case or punctuation.`,
        why: 'A model writes names from memory: it mixes such names up and calls the wrong tool, or one that is not there.',
        fix: 'Merge them into one tool, or name each after what sets it apart (search_products, search_orders).',
      }),
    );
  }
  return findings;
}
