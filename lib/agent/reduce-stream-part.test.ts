import { describe, expect, it } from 'vitest';
import { STOPPED_CALL_ERROR, UNFINISHED_CALL_ERROR, initialRunState, reduceRunState, reduceStreamPart } from './reduce-stream-part';
import type { AgentMessage, AgentStreamPart } from './types';

const user: AgentMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Add the blue shoe' }] };

function fold(parts: AgentStreamPart[], start: AgentMessage[] = [user]): AgentMessage[] {
  return parts.reduce(reduceStreamPart, start);
}

describe('reduceStreamPart', () => {
  it('opens an assistant message on message-start, once per id', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'message-start', messageId: 'a1' },
    ]);
    expect(out).toEqual([user, { id: 'a1', role: 'assistant', parts: [] }]);
  });

  it('appends text deltas to one text part', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'text-delta', messageId: 'a1', delta: 'Done' },
      { type: 'text-delta', messageId: 'a1', delta: ', added.' },
    ]);
    expect(out[1].parts).toEqual([{ type: 'text', text: 'Done, added.' }]);
  });

  it('keeps reasoning as its own part, with provider metadata', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'reasoning', messageId: 'a1', text: 'Search first.', providerMetadata: { anthropic: { signature: 's' } } },
      { type: 'text-delta', messageId: 'a1', delta: 'OK' },
    ]);
    expect(out[1].parts).toEqual([
      { type: 'reasoning', text: 'Search first.', providerMetadata: { anthropic: { signature: 's' } } },
      { type: 'text', text: 'OK' },
    ]);
  });

  it('tracks a tool call from running to done', () => {
    const running = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'search', input: { query: 'shoe' } },
    ]);
    expect(running[1].parts).toEqual([{ type: 'tool', id: 'c1', name: 'search', input: { query: 'shoe' }, state: 'running' }]);
    const output = { content: [{ type: 'text' as const, text: '3 results' }] };
    const done = reduceStreamPart(running, { type: 'tool-result', id: 'c1', output });
    expect(done[1].parts).toEqual([{ type: 'tool', id: 'c1', name: 'search', input: { query: 'shoe' }, state: 'done', output }]);
  });

  it('marks a failed call as error and a stopped one as cancelled', () => {
    const base = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'buy', input: {} },
      { type: 'tool-call', messageId: 'a1', id: 'c2', name: 'buy', input: {} },
    ]);
    const out = fold(
      [
        { type: 'tool-error', id: 'c1', error: 'Error [tool_threw]: out of stock' },
        { type: 'tool-error', id: 'c2', error: 'Error [cancelled]: the person declined' },
      ],
      base,
    );
    expect(out[1].parts.map((p) => (p.type === 'tool' ? [p.state, p.error] : null))).toEqual([
      ['error', 'Error [tool_threw]: out of stock'],
      ['cancelled', 'Error [cancelled]: the person declined'],
    ]);
  });

  it('starts a new text part after a tool call', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'text-delta', messageId: 'a1', delta: 'Searching.' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'search', input: {} },
      { type: 'tool-result', id: 'c1', output: { content: [] } },
      { type: 'text-delta', messageId: 'a1', delta: 'Found it.' },
    ]);
    expect(out[1].parts.map((p) => p.type)).toEqual(['text', 'tool', 'text']);
  });

  it('finds calls of earlier messages and ignores unknown call ids', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'search', input: {} },
      { type: 'message-start', messageId: 'a2' },
      { type: 'tool-result', id: 'c1', output: { content: [] } },
    ]);
    expect(out[1].parts[0]).toMatchObject({ state: 'done' });
    expect(reduceStreamPart(out, { type: 'tool-result', id: 'nope', output: { content: [] } })).toBe(out);
  });

  it('creates the message when a part arrives before its message-start', () => {
    const out = fold([{ type: 'text-delta', messageId: 'x', delta: 'hi' }]);
    expect(out[1]).toEqual({ id: 'x', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] });
  });

  it('never mutates its input and shares unchanged messages', () => {
    const start = fold([{ type: 'message-start', messageId: 'a1' }]);
    const frozen = structuredClone(start);
    const next = reduceStreamPart(start, { type: 'text-delta', messageId: 'a1', delta: 'x' });
    expect(start).toEqual(frozen);
    expect(next).not.toBe(start);
    expect(next[0]).toBe(start[0]);
  });

  it('on Stop, cancels calls left running and drops empty assistant messages', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'search', input: {} },
      { type: 'message-start', messageId: 'a2' },
      { type: 'finish', reason: 'aborted' },
    ]);
    expect(out).toHaveLength(2);
    expect(out[1].parts[0]).toMatchObject({ state: 'cancelled', error: STOPPED_CALL_ERROR });
  });

  it('on error, fails calls left running', () => {
    const out = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'tool-call', messageId: 'a1', id: 'c1', name: 'search', input: {} },
      { type: 'error', error: 'The on-device model failed: out of memory' },
    ]);
    expect(out[1].parts[0]).toMatchObject({ state: 'error', error: UNFINISHED_CALL_ERROR });
  });

  it('leaves the conversation alone on a clean finish', () => {
    const start = fold([
      { type: 'message-start', messageId: 'a1' },
      { type: 'text-delta', messageId: 'a1', delta: 'Hi' },
    ]);
    expect(reduceStreamPart(start, { type: 'finish', reason: 'stop' })).toBe(start);
  });
});

describe('reduceRunState', () => {
  it('records steps, the finish reason and keeps messages', () => {
    const parts: AgentStreamPart[] = [
      { type: 'message-start', messageId: 'a1' },
      { type: 'text-delta', messageId: 'a1', delta: 'Hi' },
      { type: 'step-finish', step: 1 },
      { type: 'finish', reason: 'max-steps' },
    ];
    const state = parts.reduce(reduceRunState, initialRunState([user]));
    expect(state).toMatchObject({ status: 'done', finishReason: 'max-steps', steps: 1 });
    expect(state.messages).toHaveLength(2);
  });

  it('keeps a run error and its code for the panel', () => {
    const state = reduceRunState(initialRunState([user]), { type: 'error', error: 'Slow down', code: 'rate_limited' });
    expect(state).toMatchObject({ status: 'error', error: { message: 'Slow down', code: 'rate_limited' } });
    expect(state.messages).toEqual([user]);
  });

  it('starts as running', () => {
    expect(initialRunState([user])).toEqual({ messages: [user], status: 'running', steps: 0 });
  });
});

describe('nested runs (agent-part)', () => {
  const nested = (part: AgentStreamPart, id = 'd1', agentId = 'checkout'): AgentStreamPart => ({ type: 'agent-part', id, agentId, part });
  const delegation: AgentStreamPart[] = [
    { type: 'message-start', messageId: 'a1' },
    { type: 'tool-call', messageId: 'a1', id: 'd1', name: 'delegate_to_checkout', input: { task: 'Check out' } },
    nested({ type: 'message-start', messageId: 's1' }),
    nested({ type: 'tool-call', messageId: 's1', id: 'c1', name: 'check_out', input: {} }),
  ];

  it('folds a sub-agent’s parts into agent: { id, messages } of its delegate call, leaving the call open', () => {
    const out = fold([...delegation, nested({ type: 'tool-result', id: 'c1', output: { content: [{ type: 'text', text: 'Placed' }] } })]);
    const delegate = out[1].parts[0];
    expect(delegate).toMatchObject({ type: 'tool', id: 'd1', state: 'running' });
    expect(delegate.type === 'tool' && delegate.agent).toEqual({
      id: 'checkout',
      messages: [
        {
          id: 's1',
          role: 'assistant',
          parts: [
            {
              type: 'tool',
              id: 'c1',
              name: 'check_out',
              input: {},
              state: 'done',
              output: { content: [{ type: 'text', text: 'Placed' }] },
            },
          ],
        },
      ],
    });
  });

  it('a nested finish closes only the nested run; the parent’s Stop closes the nested calls too', () => {
    const nestedDone = fold([...delegation, nested({ type: 'finish', reason: 'stop' })]);
    const open = nestedDone[1].parts[0];
    expect(open.type === 'tool' && open.state).toBe('running');
    expect(open.type === 'tool' && open.agent?.messages[0].parts[0]).toMatchObject({ state: 'error', error: UNFINISHED_CALL_ERROR });

    const stopped = fold([...delegation, { type: 'finish', reason: 'aborted' }]);
    const delegate = stopped[1].parts[0];
    expect(delegate).toMatchObject({ state: 'cancelled', error: STOPPED_CALL_ERROR });
    expect(delegate.type === 'tool' && delegate.agent?.messages[0].parts[0]).toMatchObject({
      state: 'cancelled',
      error: STOPPED_CALL_ERROR,
    });
  });

  it('ignores nested parts for a call it does not know', () => {
    const start = fold(delegation.slice(0, 2));
    expect(reduceStreamPart(start, nested({ type: 'message-start', messageId: 's9' }, 'nope'))).toBe(start);
  });
});
