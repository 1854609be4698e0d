import { describe, expect, it } from 'vitest';
import { TOOL_ERROR_CODES, formatToolError, isToolErrorCode, parseToolError } from './tool-error-codes';

describe('tool error codes', () => {
  it('defines every code the page bridge sends, each with a one-line meaning', () => {
    expect(Object.keys(TOOL_ERROR_CODES).sort()).toEqual(
      [
        'awaiting_confirmation',
        'cancelled',
        'frame_gone',
        'invalid_input',
        'navigated',
        'timeout',
        'too_large',
        'tool_changed',
        'tool_threw',
        'unknown_tool',
        'sub_agent_failed',
        'too_many_calls',
      ].sort(),
    );
    for (const meaning of Object.values(TOOL_ERROR_CODES)) {
      expect(meaning).not.toContain('\n');
      expect(meaning.length).toBeLessThan(140);
    }
  });

  it('formats and parses errors', () => {
    const text = formatToolError('timeout', 'no answer after 30 s');
    expect(text).toBe('Error [timeout]: no answer after 30 s');
    expect(parseToolError(text)).toEqual({ code: 'timeout', message: 'no answer after 30 s' });
    expect(parseToolError('Error: size: required')).toEqual({ message: 'size: required' });
    expect(parseToolError('All good')).toBeUndefined();
  });

  it('knows its own codes only', () => {
    expect(isToolErrorCode('navigated')).toBe(true);
    expect(isToolErrorCode('toString')).toBe(false);
  });
});
