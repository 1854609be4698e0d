import type { PanelTool } from '../messaging/agent-messages';
import type { AuditFinding, AuditInput, ScannedForm } from './audit-types';
import { findingFor } from './finding-for';
import { looksConsequential } from './looks-consequential';

/**
 * A tool whose name or description says it buys, pays, sends, deletes or books, without `consequentialHint`. A
 * declarative form has no such hint; it is safe while the person submits it, so only a form with `toolautosubmit`
 * is reported (when the page's forms could be read).
 */
export function checkConsequentialHint(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.annotations?.consequentialHint === true) continue;
    if (tool.declarative && !formOf(tool, input)?.autosubmit) continue;
    const evidence = looksConsequential(tool);
    if (!evidence) continue;
    findings.push(
      findingFor(tool, {
        rule: 'annotation/consequential-missing',
        severity: 'error',
        field: tool.declarative ? 'toolautosubmit' : 'annotations.consequentialHint',
        message: tool.declarative
          ? `It looks like it buys, pays, sends, deletes or books (${evidence}), and its form has toolautosubmit: an agent's call submits it.`
          : `It looks like it buys, pays, sends, deletes or books (${evidence}), but it is not marked consequentialHint.`,
        why: 'Agents ask the person before a consequential call. Without the hint, an agent may run it on its own, or after a single “always allow”.',
        fix: tool.declarative
          ? 'Remove toolautosubmit, so the agent fills the form in and the person presses its button.'
          : 'Add annotations: { consequentialHint: true } when you register it.',
      }),
    );
  }
  return findings;
}

/** The form a declarative tool comes from: same frame, same toolname. */
function formOf(tool: PanelTool, input: AuditInput): ScannedForm | undefined {
  const name = tool.originalName ?? tool.name;
  return input.forms?.find((frame) => frame.frameId === (tool.frameId ?? 0))?.forms.find((form) => form.toolname === name);
}
