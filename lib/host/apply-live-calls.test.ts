import { describe, expect, it } from 'vitest';
import type { AgentMessage, AgentPart, ToolCallState } from '../agent/types';
import { applyLiveCalls, type LiveCall } from './apply-live-calls';

const tool = (id: string, state: ToolCallState, more: Partial<Extract<AgentPart, { type: 'tool' }>> = {}): AgentPart => ({
  type: 'tool',
  id,
  name: 'pay',
  input: {},
  state,
  ...more,
});
const assistant = (...parts: AgentPart[]): AgentMessage => ({ id: 'a1', role: 'assistant', parts });
const user: AgentMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay the bill' }] };

describe('applyLiveCalls', () => {
  it('hands the conversation back as it is when no call is live', () => {
    const messages = [user, assistant(tool('c1', 'running'))];
    expect(applyLiveCalls(messages, new Map())).toBe(messages);
  });

  it('lays a live question and its prompt over a running call, and leaves other messages as they are', () => {
    const messages = [user, assistant({ type: 'text', text: 'Paying.' }, tool('c1', 'running'))];
    const live = new Map<string, LiveCall>([['c1', { state: 'awaiting-confirmation', prompt: 'Allow pay on shop.test?' }]]);
    const shown = applyLiveCalls(messages, live);
    expect(shown[0]).toBe(user);
    expect(shown[1].parts).toEqual([
      { type: 'text', text: 'Paying.' },
      tool('c1', 'awaiting-confirmation', { prompt: 'Allow pay on shop.test?' }),
    ]);
    // The stored conversation is not touched.
    expect(messages[1].parts[1]).toEqual(tool('c1', 'running'));
  });

  it('drops a prompt the live state no longer has (the person answered, the call runs)', () => {
    const messages = [assistant(tool('c1', 'awaiting-confirmation', { prompt: 'Allow pay?' }))];
    const shown = applyLiveCalls(messages, new Map([['c1', { state: 'running' }]]));
    expect(shown[0].parts[0]).toEqual(tool('c1', 'running'));
  });

  it('never lays a live state over a call that has ended', () => {
    const done = tool('c1', 'done', { output: { content: [{ type: 'text', text: 'paid' }] } });
    const shown = applyLiveCalls([assistant(done)], new Map([['c1', { state: 'awaiting-confirmation', prompt: 'Allow pay?' }]]));
    expect(shown[0].parts[0]).toEqual(done);
  });

  it('reaches the calls of a sub-agent’s nested run, however deep', () => {
    const innermost = assistant(tool('c3', 'running'));
    const middle = assistant(tool('c2', 'running', { name: 'delegate_to_billing', agent: { id: 'billing', messages: [innermost] } }));
    const top = assistant(tool('c1', 'running', { name: 'delegate_to_payments', agent: { id: 'payments', messages: [middle] } }));
    const shown = applyLiveCalls([top], new Map([['c3', { state: 'awaiting-confirmation', prompt: 'Allow pay?' }]]));
    const outer = shown[0].parts[0] as Extract<AgentPart, { type: 'tool' }>;
    expect(outer.state).toBe('running');
    const inner = outer.agent?.messages[0].parts[0] as Extract<AgentPart, { type: 'tool' }>;
    expect(inner.agent?.messages[0].parts[0]).toEqual(tool('c3', 'awaiting-confirmation', { prompt: 'Allow pay?' }));
  });
});
