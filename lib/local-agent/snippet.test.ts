import { describe, expect, it } from 'vitest';
import { snippet } from './snippet';

describe('snippet', () => {
  it('trims and keeps short text whole', () => {
    expect(snippet('  <tool_call>x</tool_call>\n')).toBe('<tool_call>x</tool_call>');
  });

  it('cuts long text at 200 characters and marks the cut', () => {
    const cut = snippet('a'.repeat(500));
    expect(cut).toBe(`${'a'.repeat(200)}…`);
  });
});
