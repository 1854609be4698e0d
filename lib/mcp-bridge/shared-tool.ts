/**
 * One tool shared with desktop agents: where it is (tab, site, the frame's origin), under its MCP name
 * (lib/agent/site-tool-names.ts), and how a client is told where it is.
 */
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { hostOf } from '../shared/host-of';
import { webOriginOf } from '../shared/web-origin-of';
import type { NamedTool } from '../agent/site-tool-names';

/** A shared tool: its name's parts, its entry in the tab's snapshot, and its tab's title (page text, cleaned). */
export interface SharedTool extends NamedTool {
  entry: TabToolEntry;
  title?: string;
}

/** The origin of the frame that owns a tool, as the policy knows it ("null" stays "null": a sandboxed frame). */
export function frameOriginOf(entry: TabToolEntry): string {
  return webOriginOf(entry.origin) ?? entry.origin;
}

/** Where a shared tool is, in words: its frame's origin, inside which site (for a frame of another origin). */
export function whereOf(tool: SharedTool): string {
  if (tool.origin === undefined) return `on ${hostOf(tool.site)}`;
  if (tool.origin === 'null') return `in a sandboxed frame inside ${hostOf(tool.site)}`;
  return `on ${hostOf(tool.origin)}, a frame inside ${hostOf(tool.site)}`;
}
