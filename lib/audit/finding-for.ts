import type { PanelTool } from '../messaging/agent-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import type { AuditFinding } from './audit-types';

/** The page's own name for a tool (the model-facing name may differ), as page text: cleaned, one line. */
export function pageName(tool: PanelTool): string {
  return quote(tool.originalName ?? tool.name, 128);
}

/** Page text to quote in a finding: hidden characters out, one line, cut to `max` characters. */
export function quote(text: unknown, max = 80): string {
  return cleanPageText(text, { oneLine: true, max });
}

/** A finding about `tool`: its page name and frame filled in. */
export function findingFor(tool: PanelTool, finding: Omit<AuditFinding, 'tool' | 'origin' | 'frameId'>): AuditFinding {
  return {
    ...finding,
    tool: pageName(tool),
    ...(tool.origin ? { origin: quote(tool.origin, 200) } : {}),
    ...(typeof tool.frameId === 'number' ? { frameId: tool.frameId } : {}),
  };
}
