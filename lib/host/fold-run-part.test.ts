import { describe, expect, it } from 'vitest';
import { initialRunState } from '../agent/reduce-stream-part';
import type { AgentMessage, AgentPart, AgentStreamPart } from '../agent/types';
import { foldRunPart } from './fold-run-part';

const user: AgentMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'log me in' }] };
const CARD = [['card']];
const pathsFor = (call: { id: string; name: string }) => (call.name === 'pay' ? CARD : []);

/** Folds the parts one after the other, as the session does, keeping every step's result. */
function foldAll(parts: AgentStreamPart[]) {
  let state = initialRunState([user]);
  const settled: (string | undefined)[] = [];
  for (const part of parts) {
    const folded = foldRunPart(state, part, pathsFor);
    state = folded.state;
    settled.push(folded.settled);
  }
  return { state, settled };
}
const toolPart = (messages: AgentMessage[]) => messages.at(-1)?.parts.at(-1) as Extract<AgentPart, { type: 'tool' }>;

describe('foldRunPart', () => {
  it('folds the parts into the conversation and keeps a call’s secret paths with it from its start', () => {
    const { state, settled } = foldAll([
      { type: 'message-start', messageId: 'm1' },
      { type: 'tool-call', messageId: 'm1', id: 'c1', name: 'pay', input: { card: '4111' } },
    ]);
    expect(state.status).toBe('running');
    expect(toolPart(state.messages)).toMatchObject({ id: 'c1', name: 'pay', state: 'running', secretPaths: CARD });
    expect(settled).toEqual([undefined, undefined]);
  });

  it('names the call a result or an error ended, so its live state can go', () => {
    const { state, settled } = foldAll([
      { type: 'message-start', messageId: 'm1' },
      { type: 'tool-call', messageId: 'm1', id: 'c1', name: 'search', input: {} },
      { type: 'tool-result', id: 'c1', output: { content: [{ type: 'text', text: 'found' }] } },
      { type: 'tool-call', messageId: 'm1', id: 'c2', name: 'pay', input: {} },
      { type: 'tool-error', id: 'c2', error: 'Error [declined]: no.' },
    ]);
    expect(settled).toEqual([undefined, undefined, 'c1', undefined, 'c2']);
    expect(state.messages.at(-1)?.parts.map((p) => (p.type === 'tool' ? p.state : p.type))).toEqual(['done', 'error']);
  });

  it('reaches a sub-agent’s call however deep, for its secret paths and for its end', () => {
    const nested = (part: AgentStreamPart): AgentStreamPart => ({ type: 'agent-part', id: 'd1', agentId: 'billing', part });
    const { state, settled } = foldAll([
      { type: 'message-start', messageId: 'm1' },
      { type: 'tool-call', messageId: 'm1', id: 'd1', name: 'delegate_to_billing', input: {} },
      nested({ type: 'message-start', messageId: 'n1' }),
      nested({ type: 'tool-call', messageId: 'n1', id: 'c9', name: 'pay', input: { card: '4111' } }),
      nested({ type: 'tool-result', id: 'c9', output: { content: [{ type: 'text', text: 'paid' }] } }),
    ]);
    expect(settled.at(-1)).toBe('c9');
    const inner = toolPart(toolPart(state.messages).agent?.messages ?? []);
    expect(inner).toMatchObject({ id: 'c9', state: 'done', secretPaths: CARD });
  });

  it('ends the run on finish or error, as reduceRunState says', () => {
    expect(foldAll([{ type: 'finish', reason: 'max-steps' }]).state).toMatchObject({ status: 'done', finishReason: 'max-steps' });
    expect(foldAll([{ type: 'error', error: 'No key.', code: 'bad_request' }]).state).toMatchObject({
      status: 'error',
      error: { message: 'No key.', code: 'bad_request' },
    });
  });
});
