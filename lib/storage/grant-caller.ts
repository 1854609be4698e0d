/**
 * Who a grant ("Always on this site") is for (docs/security.md § 3, "Grants are per caller"). The in-browser agent
 * and each desktop agent are different parties: one's "Always" never lets another's call run unasked.
 *
 * - `agent`: the in-browser agent, with its sub-agents and the person's calls by hand in the panel: every one of
 *   them is asked about in the panel, about the conversation the person is having there. Grants stored before
 *   grants had a caller were made there too (the desktop bridge came later), so they read as this caller's.
 * - `desktop`: one desktop agent, known by the name it gives itself in MCP's `initialize` (`clientInfo.name`),
 *   cleaned and cut as the panel shows it in the question ("Claude Code (desktop agent) asks: …"). That name is all
 *   a local MCP client says about itself: it is not proven (any program running as the person can claim it, as §7
 *   says), and its version is left out so that a grant survives an update. A client that gives no name is unknown
 *   and gets no grant.
 */
export type GrantCaller = { kind: 'agent' } | { kind: 'desktop'; name: string };

/** The in-browser agent (its sub-agents and the person's calls by hand too). */
export const IN_BROWSER_AGENT: GrantCaller = { kind: 'agent' };

/**
 * The name a client stands under when it gave none: the bridge's MCP server sends it (bridge/src/mcp-server.ts), and
 * the extension uses it for an empty name (lib/mcp-bridge/create-mcp-bridge.ts). It names nobody.
 */
const UNNAMED_CLIENT = 'MCP client';

/** Most characters of a desktop agent's name (as the bridge cuts it). */
const MAX_NAME = 60;

/**
 * The grant caller of a desktop agent by the name the panel shows for it, or undefined for an unknown one (no name,
 * or the bridge's stand-in name): an unknown caller neither gets nor makes a grant.
 */
export function desktopCaller(name: string): GrantCaller | undefined {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === UNNAMED_CLIENT || trimmed.length > MAX_NAME) return undefined;
  return { kind: 'desktop', name: trimmed };
}

/** Whether two callers are the same party. */
export function sameCaller(a: GrantCaller, b: GrantCaller): boolean {
  return a.kind === 'agent' ? b.kind === 'agent' : b.kind === 'desktop' && a.name === b.name;
}

/** The caller in words, for the options page. */
export function callerLabel(caller: GrantCaller): string {
  return caller.kind === 'agent' ? 'The in-browser agent' : `Desktop agent “${caller.name}”`;
}

/**
 * A stored grant's caller. A grant stored before grants had one (no `caller`) is the in-browser agent's: that is
 * where grants were made. Anything else that is not a caller is undefined, and the grant is dropped.
 */
export function readGrantCaller(value: unknown): GrantCaller | undefined {
  if (value === undefined) return IN_BROWSER_AGENT;
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.kind === 'agent') return IN_BROWSER_AGENT;
  return v.kind === 'desktop' && typeof v.name === 'string' ? desktopCaller(v.name) : undefined;
}
