import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import { retryMessages } from './retry-messages';

const user = (id: string, text: string): AgentMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe('retryMessages', () => {
  it('drops the failed reply after the last user message when no call finished', () => {
    const messages: AgentMessage[] = [user('u1', 'hi'), { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hal' }] }];
    expect(retryMessages(messages)).toEqual([messages[0]]);
  });

  it('keeps everything up to the last finished call, dropping later text and cancelled calls', () => {
    const done = { type: 'tool' as const, id: 't1', name: 'search', input: {}, state: 'done' as const, output: { content: [] } };
    const failed = { type: 'tool' as const, id: 't2', name: 'open', input: {}, state: 'error' as const, error: 'Error: no' };
    const cancelled = {
      type: 'tool' as const,
      id: 't3',
      name: 'buy',
      input: {},
      state: 'cancelled' as const,
      error: 'Error [cancelled]: stopped.',
    };
    const messages: AgentMessage[] = [
      user('u0', 'earlier'),
      { id: 'a0', role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
      user('u1', 'buy a lamp'),
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Looking' }, done] },
      { id: 'a2', role: 'assistant', parts: [failed, { type: 'text', text: 'Hmm' }, cancelled] },
    ];
    expect(retryMessages(messages)).toEqual([...messages.slice(0, 4), { id: 'a2', role: 'assistant', parts: [failed] }]);
  });

  it('has nothing to retry without a user message', () => {
    expect(retryMessages([])).toEqual([]);
  });
});
