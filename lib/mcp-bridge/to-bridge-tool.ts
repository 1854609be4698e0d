/**
 * A shared tool as a desktop agent sees it (an MCP Tool): described as on its frame's origin, inside which site and
 * tab, with its description and schema cleaned as for the extension's own model.
 */
import { cleanDescription, cleanSchema } from '../schema/clean-schema';
import type { BridgeTool } from '../messaging/mcp-bridge-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import { type SharedTool, whereOf } from './shared-tool';

/** The MCP Tool for the shared tool listed under `name`. */
export function toBridgeTool(name: string, tool: SharedTool): BridgeTool {
  const where = `${capitalize(whereOf(tool))}${tool.title ? ` (tab “${tool.title}”)` : ''}`;
  const description = cleanDescription(tool.entry.description ?? '');
  const title = tool.entry.title ? cleanPageText(tool.entry.title, { oneLine: true, max: 100 }) : undefined;
  return {
    name,
    ...(title ? { title } : {}),
    description: description ? `${where}: ${description}` : `${where}.`,
    inputSchema: { ...cleanSchema(tool.entry.inputSchema), type: 'object' },
    ...(tool.entry.annotations?.readOnlyHint === true ? { annotations: { readOnlyHint: true } } : {}),
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
