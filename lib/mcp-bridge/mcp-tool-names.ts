/**
 * The names desktop agents call shared tools by: `<site>__<tool>`, for example `shop_example__add_to_cart` or
 * `127_0_0_1_5174__search_products`, from `[a-zA-Z0-9_-]` only and at most 64 characters (what Claude, OpenAI and
 * Cursor accept for a tool name). A name stays the same while its tab keeps the tool on that site; the same tool in
 * a second tab of the site gets `<site>_2__<tool>`. A name is never reused for another tab or site while the bridge
 * runs, so a call by an old name can be told apart from one by a name that never existed.
 */

/** Most characters of a name. */
export const MAX_TOOL_NAME = 64;

/** Which tool of which tab a name stands for. */
export interface NamedTool {
  tabId: number;
  site: string;
  /** The tool's model-facing name in its tab (lib/webmcp/to-model-facing-names.ts). */
  tool: string;
}

/** The site's part of a name: its host (without `www.`) and port, as letters, digits and underscores. */
export function siteLabel(site: string): string {
  let host = site;
  try {
    host = new URL(site).host;
  } catch {
    // Not a URL: use it as it is.
  }
  const label = host
    .replace(/^www\./i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (label || 'site').slice(0, 32).replace(/_+$/, '');
}

/** The names given out while the bridge runs. */
interface ToolNames {
  /** The name for this tool of this tab on this site: the one it had, or a new one. */
  nameOf(tool: NamedTool): string;
  /** What a name stands for, whether or not its tool is still shared. */
  lookup(name: string): NamedTool | undefined;
}

/** Creates the registry. */
export function createToolNames(): ToolNames {
  const byKey = new Map<string, string>();
  const byName = new Map<string, NamedTool>();
  const keyOf = (t: NamedTool) => JSON.stringify([t.tabId, t.site, t.tool]);
  return {
    nameOf(tool) {
      const key = keyOf(tool);
      const known = byKey.get(key);
      if (known) return known;
      const label = siteLabel(tool.site);
      const toolPart = tool.tool.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
      let name = '';
      for (let n = 1; ; n++) {
        const prefix = `${label}${n === 1 ? '' : `_${n}`}__`;
        name = `${prefix}${toolPart}`.slice(0, MAX_TOOL_NAME);
        if (!byName.has(name)) break;
      }
      byKey.set(key, name);
      byName.set(name, { ...tool });
      return name;
    },
    lookup: (name) => byName.get(name),
  };
}
