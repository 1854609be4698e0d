import { describe, expect, it } from 'vitest';
import { isDebuggingTool } from './is-debugging-tool';

describe('isDebuggingTool', () => {
  it('is true only for annotations.debugging === true', () => {
    expect(isDebuggingTool({ annotations: { debugging: true } })).toBe(true);
    expect(isDebuggingTool({ annotations: { debugging: false } })).toBe(false);
    expect(isDebuggingTool({ annotations: { readOnlyHint: true } })).toBe(false);
    expect(isDebuggingTool({})).toBe(false);
    expect(isDebuggingTool(undefined)).toBe(false);
  });

  it('takes nothing but the boolean true: a claimed "true" or 1 leaves the tool an ordinary one', () => {
    expect(isDebuggingTool({ annotations: { debugging: 'true' as unknown as boolean } })).toBe(false);
    expect(isDebuggingTool({ annotations: { debugging: 1 as unknown as boolean } })).toBe(false);
  });
});
