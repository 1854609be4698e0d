import type { AgentMessage, AgentPart, AgentStreamPart } from '../agent/types';
import type { SecretPath } from './secret-paths-of';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

/**
 * Folds a call's secret paths into the conversation: when `part` starts or ends a tool call (a sub-agent's too,
 * however deep), that call's tool part gets `pathsFor(call)` merged into its `secretPaths`. The paths then travel
 * with the call, into storage and every export, so the call stays masked after its tool has left the page; they
 * are judged while the tool is still known (the host answers from the call's own timeline record, or the tool on
 * the page). Returns `messages` itself when nothing changes.
 */
export function recordSecretPaths(
  messages: AgentMessage[],
  part: AgentStreamPart,
  pathsFor: (call: { id: string; name: string }) => readonly SecretPath[],
): AgentMessage[] {
  const inner = innermost(part);
  if (inner.type !== 'tool-call' && inner.type !== 'tool-result' && inner.type !== 'tool-error') return messages;
  return updateCall(messages, inner.id, (tool) => {
    const known = tool.secretPaths ?? [];
    const seen = new Set(known.map((p) => JSON.stringify(p)));
    const added = pathsFor({ id: tool.id, name: tool.name }).filter((p) => !seen.has(JSON.stringify(p)));
    return added.length === 0 ? tool : { ...tool, secretPaths: [...known, ...added.map((p) => [...p])] };
  });
}

function innermost(part: AgentStreamPart): AgentStreamPart {
  return part.type === 'agent-part' ? innermost(part.part) : part;
}

/** Applies `update` to the tool part with call id `id`, searching nested runs too; unchanged trees are kept as they are. */
function updateCall(messages: AgentMessage[], id: string, update: (tool: ToolPart) => ToolPart): AgentMessage[] {
  const out = messages.map((message) => {
    const parts = message.parts.map((p): AgentPart => {
      if (p.type !== 'tool') return p;
      if (p.id === id) return update(p);
      if (!p.agent) return p;
      const nested = updateCall(p.agent.messages, id, update);
      return nested === p.agent.messages ? p : { ...p, agent: { ...p.agent, messages: nested } };
    });
    return parts.some((p, i) => p !== message.parts[i]) ? { ...message, parts } : message;
  });
  return out.some((m, i) => m !== messages[i]) ? out : messages;
}
