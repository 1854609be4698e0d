/**
 * The names desktop agents call shared tools by: `<origin>__<tool>`, for example `shop_example__add_to_cart` or
 * `127_0_0_1_5174__search_products`, from `[a-zA-Z0-9_-]` only and at most 64 characters (what Claude, OpenAI and
 * Cursor accept for a tool name). The label is the origin of the frame that owns the tool: a delegated frame of
 * ads.example inside the shop offers `ads_example__lookup`, never a name that passes for the shop's. A name stays
 * the same while its tab keeps the tool on that site in that frame's origin; the same tool in a second tab gets
 * `<origin>_2__<tool>`. A name is never reused for another tab, site or origin while the bridge runs, so an old
 * name never reaches another tool.
 */

/** Most characters of a name. */
export const MAX_TOOL_NAME = 64;

/** Which tool of which tab a name stands for. */
export interface NamedTool {
  tabId: number;
  site: string;
  /** The tool's model-facing name in its tab (lib/agent/to-model-facing-names.ts). */
  tool: string;
  /** The origin of the frame that owns the tool, when it is not the site's ("null" for a sandboxed frame). */
  origin?: string;
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
export interface ToolNames {
  /** The name for this tool of this tab on this site, in this frame's origin: the one it had, or a new one. */
  nameOf(tool: NamedTool): string;
}

/** Creates the registry. */
export function createToolNames(): ToolNames {
  const byKey = new Map<string, string>();
  const given = new Set<string>();
  const keyOf = (t: NamedTool) => JSON.stringify([t.tabId, t.site, t.tool, t.origin ?? '']);
  return {
    nameOf(tool) {
      const key = keyOf(tool);
      const known = byKey.get(key);
      if (known) return known;
      // A sandboxed frame's opaque origin names no site: its label says what it is.
      const label = tool.origin === 'null' ? 'sandboxed_frame' : siteLabel(tool.origin ?? tool.site);
      const toolPart = tool.tool.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
      let name = '';
      for (let n = 1; ; n++) {
        const prefix = `${label}${n === 1 ? '' : `_${n}`}__`;
        name = `${prefix}${toolPart}`.slice(0, MAX_TOOL_NAME);
        if (!given.has(name)) break;
      }
      byKey.set(key, name);
      given.add(name);
      return name;
    },
  };
}
