import { delegateToolName, subAgentFor } from './select-tools';
import type { WebAgent } from './types';

/**
 * The agent a delegation path leads to: `path` holds the sub-agents' ids from `root` (the site's agent) down, as
 * delegation nested them (AgentRunRequest.callTool's `agentPath`). `{ agent: root }` for an empty path; undefined
 * when a step names no sub-agent of the agent above it or goes deeper than delegation may nest, so a made-up path
 * reaches no agent and so no tool.
 */
export function agentAtPath(root: WebAgent | undefined, path: readonly string[]): { agent: WebAgent | undefined } | undefined {
  let agent = root;
  for (const [depth, id] of path.entries()) {
    agent = typeof id === 'string' ? subAgentFor(agent, delegateToolName(id), depth) : undefined;
    if (!agent) return undefined;
  }
  return { agent };
}
