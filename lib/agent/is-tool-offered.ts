import { agentAtPath } from './agent-at-path';
import { isFindToolsName } from './find-tools-name';
import { isDelegateToolName } from './select-tools';
import type { WebAgent } from './types';

/**
 * Whether the page tool `name` was offered to the agent at `path` below `root` (docs/security.md, "Only the tools
 * offered run"): that agent's own tool list allows it (every page tool when it has none), at that depth. A
 * `delegate_to_*` name is never a page tool: delegation is the adapter's, and a page tool of that name never runs
 * under it; nor does one under the search tool's name (`find_tools`, which the loop runs itself). The host checks this where the call is executed, whatever the model was prompted with: a model
 * steered by a page may name any tool of the tab (another sub-agent's, one no agent lists).
 */
export function isToolOffered(root: WebAgent | undefined, path: readonly string[], name: string): boolean {
  if (typeof name !== 'string' || isDelegateToolName(name) || isFindToolsName(name)) return false;
  const reached = agentAtPath(root, path);
  if (!reached) return false;
  const allowed = reached.agent?.tools;
  return !allowed || allowed.includes(name);
}
