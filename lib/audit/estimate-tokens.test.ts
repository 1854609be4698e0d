import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens';

describe('estimateTokens', () => {
  it('counts every turn and the tools as JSON at 3.5 characters a token, rounding up', () => {
    expect(estimateTokens({ messages: [{ role: 'system', content: 'x'.repeat(70) }] })).toBe(20);
    const tools = [{ type: 'function', function: { name: 'a', description: 'b', parameters: {} } }];
    const json = JSON.stringify(tools).length;
    expect(estimateTokens({ messages: [{ role: 'user', content: 'hi' }], tools })).toBe(Math.ceil((2 + json) / 3.5));
    expect(estimateTokens({ messages: [] })).toBe(0);
  });
});
