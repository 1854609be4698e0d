import { STOPPED_CALL_ERROR } from './reduce-stream-part';
import { subAgentFor } from './select-tools';
import { formatToolError } from './tool-error-codes';
import type { AgentRunRequest, AgentStreamPart, ToolCall, ToolOutput } from './types';
import { errorMessage } from '../shared/error-message';

/** Runs one agent loop: the adapter's own (runLocalAgent with its provider, or the cloud loop with its model). */
export type RunAgentLoop = (req: AgentRunRequest) => AsyncIterable<AgentStreamPart>;

/** A sub-agent's part, wrapped for the stream of the run that delegated to it. */
export type NestedPart = Extract<AgentStreamPart, { type: 'agent-part' }>;

/** Said for a sub-agent that ended its run with nothing to say. */
const SILENT_SUB_AGENT = 'The sub-agent finished without an answer.';

/**
 * Runs the sub-agent behind the delegate call `call` of the run `req` as a nested run of `loop`, and returns
 * its final answer as the call's output. Yields each part of the nested run wrapped as an `agent-part` of
 * `call.id`, so the panel shows it under the delegate call.
 *
 * The nested run gets the sub-agent as its agent (its instructions, tool filter, steps and own sub-agents), the
 * task as its one user message, and the parent's tools getter, page, Stop signal and callTool: its calls go
 * through the same bridge, cursor and confirmation policy. Its answer is the text of its last message. A run
 * that ends in an error or runs out of steps comes back as `Error [sub_agent_failed]`, Stop as
 * `Error [cancelled]`: failed results the parent can read and recover from. Never throws.
 */
export async function* runSubAgent(
  req: AgentRunRequest,
  call: ToolCall,
  loop: RunAgentLoop,
): AsyncGenerator<AgentStreamPart, ToolOutput, undefined> {
  const depth = req.delegationDepth ?? 0;
  const sub = subAgentFor(req.agent, call.name, depth);
  if (!sub) return failed(formatToolError('unknown_tool', `no sub-agent answers to ${call.name}.`));
  const task = taskOf(call.input);
  if (!task) return failed(formatToolError('invalid_input', `${call.name} needs a task: { "task": "…" } with the whole request.`));
  const name = sub.name?.trim() || sub.id;

  const nested: AgentRunRequest = {
    messages: [{ id: `${call.id}:task`, role: 'user', parts: [{ type: 'text', text: task }] }],
    get tools() {
      return req.tools;
    },
    signal: req.signal,
    // The host judges each call by the agent that made it: the path names this sub-agent (and any below it).
    callTool: (nestedCall, path = []) => req.callTool(nestedCall, [sub.id, ...path]),
    agent: sub,
    ...(req.page ? { page: req.page } : {}),
    ...(req.site ? { site: req.site } : {}),
    delegationDepth: depth + 1,
  };

  const answer = new Map<string, string>();
  let lastMessage: string | undefined;
  let ending: Extract<AgentStreamPart, { type: 'finish' } | { type: 'error' }> | undefined;
  try {
    for await (const part of loop(nested)) {
      yield { type: 'agent-part', id: call.id, agentId: sub.id, part };
      if (part.type === 'message-start') lastMessage = part.messageId;
      if (part.type === 'text-delta') answer.set(part.messageId, (answer.get(part.messageId) ?? '') + part.delta);
      if (part.type === 'finish' || part.type === 'error') {
        ending = part;
        break;
      }
    }
  } catch (error) {
    ending = { type: 'error', error: errorMessage(error) };
    yield { type: 'agent-part', id: call.id, agentId: sub.id, part: ending };
  }
  if (!ending) {
    // A loop that ends without saying how: closed here, so its open calls do not stay "running" in the panel.
    ending = req.signal.aborted ? { type: 'finish', reason: 'aborted' } : { type: 'finish', reason: 'stop' };
    yield { type: 'agent-part', id: call.id, agentId: sub.id, part: ending };
  }

  const text = (lastMessage !== undefined ? answer.get(lastMessage) : undefined)?.trim() ?? '';
  if (req.signal.aborted || (ending.type === 'finish' && ending.reason === 'aborted')) return failed(STOPPED_CALL_ERROR);
  if (ending.type === 'error') {
    return failed(formatToolError('sub_agent_failed', `the ${name} agent could not finish: ${ending.error}`));
  }
  if (ending.reason === 'max-steps') {
    return failed(formatToolError('sub_agent_failed', `the ${name} agent ran out of steps before finishing. It said: ${text}`));
  }
  return { content: [{ type: 'text', text: text || SILENT_SUB_AGENT }] };
}

function taskOf(input: unknown): string {
  if (typeof input === 'string') return input.trim();
  if (!input || typeof input !== 'object') return '';
  const task = (input as { task?: unknown }).task;
  return typeof task === 'string' ? task.trim() : '';
}

function failed(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}
