import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../lib/agent/types';
import { createStreamAnnouncer } from './stream-announcer';

const reply = (text: string, id = 'a'): AgentMessage[] => [
  { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
  { id, role: 'assistant', parts: [{ type: 'text', text }] },
];

describe('createStreamAnnouncer', () => {
  it('announces whole sentences as they complete, and the rest when the reply ends', () => {
    const announce = createStreamAnnouncer();
    expect(announce(reply('I found'), true)).toBeUndefined();
    expect(announce(reply('I found three lamps. The'), true)).toBe('I found three lamps.');
    expect(announce(reply('I found three lamps. The cheapest'), true)).toBeUndefined();
    expect(announce(reply('I found three lamps. The cheapest is 12 €'), false)).toBe('The cheapest is 12 €');
    expect(announce(reply('I found three lamps. The cheapest is 12 €'), false)).toBeUndefined();
  });

  it('starts over for a new message', () => {
    const announce = createStreamAnnouncer();
    expect(announce(reply('First.'), false)).toBe('First.');
    expect(announce(reply('Second one.', 'b'), false)).toBe('Second one.');
  });
});
