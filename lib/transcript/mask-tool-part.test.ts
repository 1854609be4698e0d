import { describe, expect, it } from 'vitest';
import type { AgentPart } from '../agent/types';
import { maskToolPart } from './mask-tool-part';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;
const SECRET = 'hunter2-correct-horse';

describe('maskToolPart', () => {
  it('masks the call’s secret paths at any depth and redacts their values from its output and error, leaving the part unchanged', () => {
    const part: ToolPart = {
      type: 'tool',
      id: 'c1',
      name: 'pay',
      input: { user: 'ada', card: { number: '4111', cvv: '0427' }, logins: [{ password: SECRET }] },
      state: 'error',
      output: { content: [{ type: 'text', text: `Tried ${SECRET} with cvv 0427` }], isError: true },
      error: `Error [tool_threw]: bad password ${SECRET}`,
      secretPaths: [
        ['card', 'cvv'],
        ['logins', '*', 'password'],
      ],
    };
    const shown = maskToolPart(part);
    expect(shown.input).toEqual({ user: 'ada', card: { number: '4111', cvv: '[redacted]' }, logins: [{ password: '[redacted]' }] });
    expect(shown.output).toEqual({ content: [{ type: 'text', text: 'Tried [redacted] with cvv [redacted]' }], isError: true });
    expect(shown.error).toBe('Error [tool_threw]: bad password [redacted]');
    expect((part.input as { logins: { password: string }[] }).logins[0].password).toBe(SECRET);
  });

  it('hands back a part without secret paths as it is', () => {
    const part: ToolPart = { type: 'tool', id: 'c1', name: 'search', input: { q: 'mug' }, state: 'done' };
    expect(maskToolPart(part)).toBe(part);
  });
});
