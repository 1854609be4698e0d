import { describe, expect, it } from 'vitest';
import {
  buildHistory,
  callBlock,
  cutResult,
  dropOldestBlock,
  estimateTokens,
  flattenHistory,
  trimHistory,
  userBlock,
} from './build-history';
import type { AgentMessage } from './types';

const user = (text: string, id = text): AgentMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const said = (text: string, id = text): AgentMessage => ({ id, role: 'assistant', parts: [{ type: 'text', text }] });
const called = (id: string, result: string, state: 'done' | 'error' = 'done'): AgentMessage => ({
  id: `m-${id}`,
  role: 'assistant',
  parts: [
    state === 'done'
      ? { type: 'tool', id, name: 'search', input: { q: id }, state, output: { content: [{ type: 'text', text: result }] } }
      : { type: 'tool', id, name: 'search', input: { q: id }, state, error: result },
  ],
});

describe('buildHistory', () => {
  it('writes calls back as template tool_calls and tool turns', () => {
    const blocks = buildHistory([user('find'), called('c1', 'found 3')], { callFormat: 'template' });
    expect(flattenHistory(blocks, 'template')).toEqual([
      { role: 'user', content: 'find' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: { q: 'c1' } } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'search', content: 'found 3' },
    ]);
  });

  it('writes calls back as text, merging consecutive user turns', () => {
    const blocks = buildHistory([user('find'), called('c1', 'found 3'), user('thanks')], { callFormat: 'text' });
    expect(flattenHistory(blocks, 'text')).toEqual([
      { role: 'user', content: 'find' },
      { role: 'assistant', content: '<tool_call>\n{"name":"search","arguments":{"q":"c1"}}\n</tool_call>' },
      { role: 'user', content: 'Result of search:\nfound 3\n\nthanks' },
    ]);
  });

  it('keeps failed and unfinished calls with an error result', () => {
    const unfinished: AgentMessage = {
      id: 'a',
      role: 'assistant',
      parts: [{ type: 'tool', id: 'c2', name: 'buy', input: {}, state: 'running' }],
    };
    const turns = flattenHistory(buildHistory([user('x'), called('c1', 'Error [timeout]: slow', 'error'), unfinished], { callFormat: 'template' }), 'template');
    expect(turns.filter((t) => t.role === 'tool').map((t) => t.content)).toEqual([
      'Error [timeout]: slow',
      'Error [cancelled]: the call did not finish.',
    ]);
  });

  it('splits an assistant message with text after its calls', () => {
    const message: AgentMessage = {
      id: 'a',
      role: 'assistant',
      parts: [
        { type: 'reasoning', text: 'hidden' },
        { type: 'text', text: 'Looking.' },
        { type: 'tool', id: 'c1', name: 'search', input: {}, state: 'done', output: { content: [] } },
        { type: 'text', text: 'Nothing found.' },
      ],
    };
    const turns = flattenHistory(buildHistory([user('x'), message], { callFormat: 'template' }), 'template');
    expect(turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'x'],
      ['assistant', 'Looking.'],
      ['tool', ''],
      ['assistant', 'Nothing found.'],
    ]);
  });

  it('keeps the last 12 messages, starting on a user turn, and always the newest user turn', () => {
    const messages: AgentMessage[] = [];
    for (let i = 0; i < 8; i++) messages.push(user(`q${i}`), said(`a${i}`));
    const turns = flattenHistory(buildHistory(messages, { callFormat: 'template' }), 'template');
    expect(turns[0]).toEqual({ role: 'user', content: 'q2' });
    expect(turns).toHaveLength(12);
    const long: AgentMessage[] = [user('do it'), ...Array.from({ length: 20 }, (_, i) => called(`c${i}`, 'r'))];
    const kept = buildHistory(long, { callFormat: 'template' });
    expect(kept[0]).toEqual(userBlock('do it'));
    expect(buildHistory([said('hello'), user('q'), said('a')], { callFormat: 'template', maxTurns: 2 })[0]).toEqual(userBlock('q'));
  });

  it('cuts results to 1500 characters', () => {
    const turns = flattenHistory(buildHistory([user('x'), called('c1', 'y'.repeat(1600))], { callFormat: 'template' }), 'template');
    expect(turns[2].content).toBe(`${'y'.repeat(1500)}\n… (100 more characters cut)`);
    expect(cutResult('short')).toBe('short');
  });
});

describe('history under a budget', () => {
  const history = [
    userBlock('first question'),
    callBlock('template', '', [{ id: 'c1', name: 'search', input: {}, result: 'r'.repeat(400) }]),
    userBlock('second question'),
    callBlock('template', 'ok', [{ id: 'c2', name: 'search', input: {}, result: 's'.repeat(400) }]),
    userBlock('next step'),
  ];

  it('drops the oldest block and realigns on a user turn', () => {
    const dropped = dropOldestBlock(history);
    expect(dropped?.[0]).toEqual(userBlock('second question'));
    expect(dropOldestBlock([userBlock('only')])).toBeUndefined();
  });

  it('never separates a tool result from its call and keeps the newest user turn', () => {
    for (let budget = 0; budget < 600; budget += 7) {
      const turns = flattenHistory(trimHistory(history, budget), 'template');
      expect(turns.at(-1)).toEqual({ role: 'user', content: 'next step' });
      expect(turns[0].role).toBe('user');
      for (const [i, turn] of turns.entries()) {
        if (turn.role === 'tool') {
          const owner = turns.slice(0, i).reverse().find((t) => t.role === 'assistant');
          expect(owner?.tool_calls?.some((c) => c.id === turn.tool_call_id)).toBe(true);
        }
      }
    }
    expect(trimHistory(history, 100_000)).toEqual(history);
  });

  it('estimates tokens at four bytes each', () => {
    expect(estimateTokens([{ role: 'user', content: 'abcdefgh' }])).toBe(4 + 2);
    expect(estimateTokens([{ role: 'user', content: 'é' }])).toBe(4 + 1);
  });
});
