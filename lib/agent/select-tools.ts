import { isFindToolsName } from './find-tools-name';
import type { ToolDescriptor, WebAgent } from './types';

/** Tools named with this prefix hand a task to a sub-agent; the rest of the name is the sub-agent's id. */
const DELEGATE_TOOL_PREFIX = 'delegate_to_';

/**
 * How deep delegation nests: the site's agent (depth 0) may hand a task to a sub-agent (depth 1), which may hand
 * one to another (depth 2), which may not delegate again. Each level is a full agent loop with its own steps, so
 * the bound keeps a run's cost and the panel's nesting within reach of a person.
 */
export const MAX_DELEGATION_DEPTH = 2;

/**
 * A sub-agent's id: lower-case letters, digits, "_" and "-", starting with a letter, at most 40 characters, so
 * that `delegate_to_<id>` is a tool name every provider accepts (^[a-zA-Z0-9_-]{1,64}$).
 */
export const SUB_AGENT_ID_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

/** The delegate tool's name for a sub-agent id. */
export function delegateToolName(id: string): string {
  return `${DELEGATE_TOOL_PREFIX}${id}`;
}

/** Whether a tool name is reserved for delegation (a page's own tool may not take such a name). */
export function isDelegateToolName(name: unknown): boolean {
  return typeof name === 'string' && name.startsWith(DELEGATE_TOOL_PREFIX);
}

/** The input every delegate tool takes. */
const DELEGATE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    task: {
      type: 'string',
      description: 'The whole task, self-contained: the sub-agent sees nothing else of the conversation.',
    },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

/**
 * The tools an agent's model sees (README, Sub-agents): the page's tools its filter allows, plus one `delegate_to_<id>`
 * tool per sub-agent (described by the sub-agent's name and instructions, taking `{ task }`) while `depth` is
 * below {@link MAX_DELEGATION_DEPTH}. Pure; `tools` is read once, so call it per step.
 *
 * A page tool whose name starts `delegate_to_` is dropped: the name is the extension's, and a page must not
 * pass its own tool off as a delegation (nor bring on the delegation note). So is one named like the search tool
 * (`find_tools`, lib/agent/find-tools.ts), which the tab's naming already renames: a page must not stand in for it.
 */
export function selectTools(agent: WebAgent | undefined, tools: readonly ToolDescriptor[], depth = 0): ToolDescriptor[] {
  const list = (Array.isArray(tools) ? tools : []).filter(
    (tool) => tool && typeof tool.name === 'string' && !isDelegateToolName(tool.name) && !isFindToolsName(tool.name),
  );
  const allowed = agent?.tools ? new Set(agent.tools) : undefined;
  const own = allowed ? list.filter((tool) => allowed.has(tool.name)) : list;
  return [...own, ...delegateTools(agent, depth)];
}

/** The delegate tools of `agent` at `depth`: none once the depth limit is reached. */
function delegateTools(agent: WebAgent | undefined, depth = 0): ToolDescriptor[] {
  if (!agent?.subAgents || depth >= MAX_DELEGATION_DEPTH) return [];
  const seen = new Set<string>();
  const out: ToolDescriptor[] = [];
  for (const sub of agent.subAgents) {
    if (!sub || !SUB_AGENT_ID_PATTERN.test(sub.id) || seen.has(sub.id)) continue;
    seen.add(sub.id);
    out.push({
      name: delegateToolName(sub.id),
      title: `Delegate to ${sub.name?.trim() || sub.id}`,
      description: delegateDescription(sub),
      inputSchema: DELEGATE_INPUT_SCHEMA as unknown as ToolDescriptor['inputSchema'],
    });
  }
  return out;
}

/** The sub-agent `name` hands tasks to; undefined when `name` is no delegate tool of `agent`. */
export function subAgentFor(agent: WebAgent | undefined, name: string, depth = 0): WebAgent | undefined {
  if (!isDelegateToolName(name) || depth >= MAX_DELEGATION_DEPTH) return undefined;
  const id = name.slice(DELEGATE_TOOL_PREFIX.length);
  return agent?.subAgents?.find((sub) => sub?.id === id && SUB_AGENT_ID_PATTERN.test(id));
}

/**
 * Every page tool an agent or any agent it can reach by delegation may use; undefined when one of them may use
 * every tool. What the host hands the adapter as req.tools, so that a sub-agent keeps tools its parent may not
 * call itself (a "checkout" sub-agent holding check_out while the site's agent only browses).
 */
export function reachableToolNames(agent: WebAgent | undefined, depth = 0): Set<string> | undefined {
  if (!agent?.tools) return undefined;
  const names = new Set(agent.tools);
  if (depth >= MAX_DELEGATION_DEPTH) return names;
  for (const sub of agent.subAgents ?? []) {
    const theirs = reachableToolNames(sub, depth + 1);
    if (!theirs) return undefined;
    for (const name of theirs) names.add(name);
  }
  return names;
}

function delegateDescription(sub: WebAgent): string {
  const name = sub.name?.trim() || sub.id;
  const about = sub.instructions?.trim();
  const head = `Hand a task to the ${name} agent, which works on this page with its own tools and reports back.`;
  return about ? `${head} ${name}: ${about}` : head;
}
