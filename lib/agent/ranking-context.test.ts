import { describe, expect, it } from 'vitest';
import { rankingContext } from './ranking-context';
import type { AgentMessage } from './types';

const user = (text: string): AgentMessage => ({ id: text, role: 'user', parts: [{ type: 'text', text }] });
const called = (...names: string[]): AgentMessage => ({
  id: names.join(),
  role: 'assistant',
  parts: names.map((name, i) => ({ type: 'tool', id: `${name}-${i}`, name, input: {}, state: 'done' })),
});

describe('rankingContext', () => {
  it('ranks for the last user message that says something, with the tools called so far, most recent first', () => {
    const messages = [
      user('Filter for price under 800'),
      called('search_flights', 'filter_flights'),
      called('search_flights'),
      user('Only direct ones'),
      user('  '),
    ];
    expect(rankingContext(messages)).toEqual({
      request: 'Only direct ones',
      earlier: 'Filter for price under 800',
      recent: ['search_flights', 'filter_flights'],
    });
    expect(rankingContext([])).toEqual({ request: '', earlier: '', recent: [] });
  });

  it('gives the last three turns before the request, most recent first', () => {
    const messages = ['Flights to Oslo', 'In May', 'Under 300', 'For two', 'Only direct ones'].map(user);
    expect(rankingContext(messages)).toMatchObject({ request: 'Only direct ones', earlier: 'For two\nUnder 300\nIn May' });
  });
});
