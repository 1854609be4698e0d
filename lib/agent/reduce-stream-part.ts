import type { AgentErrorCode, AgentMessage, AgentPart, AgentStreamPart } from './types';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

/** What a run amounts to so far: its messages and whether (and how) it ended. What the panel renders. */
export interface AgentRunState {
  messages: AgentMessage[];
  /** running until a finish or error part arrives. */
  status: 'running' | 'done' | 'error';
  /** Set by finish. */
  finishReason?: 'stop' | 'max-steps' | 'aborted';
  /** Set by an error part: the panel shows it under the conversation (it is not a message part). */
  error?: { message: string; code?: AgentErrorCode };
  /** Model steps finished so far (from step-finish). */
  steps: number;
}

/** The state before the first part of a run: the conversation so far, ending with the new user message. */
export function initialRunState(messages: AgentMessage[]): AgentRunState {
  return { messages, status: 'running', steps: 0 };
}

/**
 * Folds one stream part into the run state. Pure: returns a new state (unchanged parts of the conversation are
 * shared), never mutates its input.
 */
export function reduceRunState(state: AgentRunState, part: AgentStreamPart): AgentRunState {
  const messages = reduceStreamPart(state.messages, part);
  switch (part.type) {
    case 'step-finish':
      return { ...state, messages, steps: Math.max(state.steps, part.step) };
    case 'finish':
      return { ...state, messages, status: 'done', finishReason: part.reason };
    case 'error':
      return { ...state, messages, status: 'error', error: { message: part.error, ...(part.code ? { code: part.code } : {}) } };
    default:
      return messages === state.messages ? state : { ...state, messages };
  }
}

/**
 * Folds one stream part into the conversation (what the panel renders and what gets persisted). Pure and
 * immutable: messages that do not change are shared with the input.
 *
 * - message-start opens an assistant message (once per id);
 * - text-delta appends to the message's last text part (or starts one after a tool call);
 * - reasoning is kept as its own part, for the next request, not for display;
 * - tool-call adds a tool part in state running; tool-result makes it done with its output; tool-error makes it
 *   error, or cancelled when the text starts "Error [cancelled]";
 * - agent-part folds a sub-agent's part, the same way, into `agent: { id, messages }` of its delegate call
 *   (a nested run; its finish or error closes only the nested run);
 * - finish and error close what the run left open: calls still running become cancelled (aborted) or error, and
 *   assistant messages that never got a part are dropped, in nested runs too. The run's error itself lives in
 *   {@link AgentRunState}.
 */
export function reduceStreamPart(messages: AgentMessage[], part: AgentStreamPart): AgentMessage[] {
  switch (part.type) {
    case 'message-start':
      return messages.some((m) => m.id === part.messageId) ? messages : [...messages, { id: part.messageId, role: 'assistant', parts: [] }];
    case 'text-delta':
      if (part.delta === '') return messages;
      return updateMessage(messages, part.messageId, (parts) => {
        const last = parts[parts.length - 1];
        if (last?.type === 'text') return [...parts.slice(0, -1), { type: 'text', text: last.text + part.delta }];
        return [...parts, { type: 'text', text: part.delta }];
      });
    case 'reasoning':
      return updateMessage(messages, part.messageId, (parts) => [
        ...parts,
        { type: 'reasoning', text: part.text, ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) },
      ]);
    case 'tool-call':
      return updateMessage(messages, part.messageId, (parts) =>
        parts.some((p) => p.type === 'tool' && p.id === part.id)
          ? parts
          : [
              ...parts,
              {
                type: 'tool',
                id: part.id,
                name: part.name,
                input: part.input,
                state: 'running',
                ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
              },
            ],
      );
    case 'tool-result':
      return updateToolPart(messages, part.id, (tool) => {
        const { error: _error, prompt: _prompt, ...rest } = tool;
        return { ...rest, state: 'done', output: part.output };
      });
    case 'tool-error':
      return updateToolPart(messages, part.id, (tool) => {
        const { prompt: _prompt, ...rest } = tool;
        return { ...rest, state: isCancelled(part.error) ? 'cancelled' : 'error', error: part.error };
      });
    case 'agent-part':
      return updateToolPart(messages, part.id, (tool) => {
        const nested = tool.agent?.id === part.agentId ? tool.agent.messages : [];
        const next = reduceStreamPart(nested, part.part);
        return next === nested && tool.agent ? tool : { ...tool, agent: { id: part.agentId, messages: next } };
      });
    case 'finish':
      return closeRun(messages, part.reason === 'aborted');
    case 'error':
      return closeRun(messages, false);
    default:
      return messages;
  }
}

/** A tool error that means the call was stopped rather than failed. */
function isCancelled(error: string): boolean {
  return error.trimStart().startsWith('Error [cancelled]');
}

/** Said of a call that was still running when its run ended some other way than Stop. */
export const UNFINISHED_CALL_ERROR = 'Error: the run ended before this call finished.';
/** Said of a call that was still running when the person pressed Stop. */
export const STOPPED_CALL_ERROR = 'Error [cancelled]: stopped.';

function closeRun(messages: AgentMessage[], aborted: boolean): AgentMessage[] {
  let changed = false;
  const out: AgentMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.parts.length === 0) {
      changed = true;
      continue;
    }
    const parts = message.parts.map((p): AgentPart => {
      if (p.type !== 'tool') return p;
      // A nested run left open by its sub-agent ends with its parent.
      const nested = p.agent ? closeRun(p.agent.messages, aborted) : undefined;
      const tool = nested && p.agent && nested !== p.agent.messages ? { ...p, agent: { ...p.agent, messages: nested } } : p;
      if (!isOpen(tool)) return tool;
      const { prompt: _prompt, ...rest } = tool;
      return aborted
        ? { ...rest, state: 'cancelled', error: STOPPED_CALL_ERROR }
        : { ...rest, state: 'error', error: UNFINISHED_CALL_ERROR };
    });
    if (parts.every((p, i) => p === message.parts[i])) {
      out.push(message);
      continue;
    }
    changed = true;
    out.push({ ...message, parts });
  }
  return changed ? out : messages;
}

function isOpen(part: ToolPart): boolean {
  return part.state === 'running' || part.state === 'awaiting-confirmation';
}

/** Applies `update` to the parts of message `id`, creating the assistant message if a part arrives before its start. */
function updateMessage(messages: AgentMessage[], id: string, update: (parts: AgentPart[]) => AgentPart[]): AgentMessage[] {
  const index = findLastIndex(messages, (m) => m.id === id);
  if (index === -1) return [...messages, { id, role: 'assistant', parts: update([]) }];
  const message = messages[index];
  const parts = update(message.parts);
  if (parts === message.parts) return messages;
  const out = messages.slice();
  out[index] = { ...message, parts };
  return out;
}

/** Applies `update` to the tool part with call id `id`, searching from the newest message. Unknown ids change nothing. */
function updateToolPart(messages: AgentMessage[], id: string, update: (tool: ToolPart) => ToolPart): AgentMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const at = message.parts.findIndex((p) => p.type === 'tool' && p.id === id);
    if (at === -1) continue;
    const parts = message.parts.slice();
    parts[at] = update(parts[at] as ToolPart);
    const out = messages.slice();
    out[i] = { ...message, parts };
    return out;
  }
  return messages;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}
