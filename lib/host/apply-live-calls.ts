import type { AgentMessage, AgentPart, ToolCallState } from '../agent/types';

/** A call's state while it runs, kept by the session beside the conversation (not stored). */
export interface LiveCall {
  state: ToolCallState;
  prompt?: string;
}

/**
 * The conversation with live call states (awaiting-confirmation and its prompt) laid over still-open calls,
 * sub-agents' nested runs included (their calls wait for the person the same way).
 *
 * @param messages The conversation as stored.
 * @param live The live state of each call by id; a call that has ended keeps its own state whatever this says.
 */
export function applyLiveCalls(messages: AgentMessage[], live: Map<string, LiveCall>): AgentMessage[] {
  if (live.size === 0) return messages;
  return messages.map((message) => {
    if (!message.parts.some((p) => p.type === 'tool' && (live.has(p.id) || p.agent))) return message;
    return {
      ...message,
      parts: message.parts.map((part): AgentPart => {
        if (part.type !== 'tool') return part;
        const nested = part.agent ? { ...part, agent: { ...part.agent, messages: applyLiveCalls(part.agent.messages, live) } } : part;
        const call = live.get(part.id);
        if (!call || (part.state !== 'running' && part.state !== 'awaiting-confirmation')) return nested;
        const { prompt: _prompt, ...rest } = nested;
        return { ...rest, state: call.state, ...(call.prompt ? { prompt: call.prompt } : {}) };
      }),
    };
  });
}
