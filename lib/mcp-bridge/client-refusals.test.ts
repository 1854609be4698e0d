import { describe, expect, it } from 'vitest';
import { parseToolError } from '../agent/tool-error-codes';
import { LEFT_SHARED_SITE_ERROR, NOT_SHARED_ERROR, refusalOutput } from './client-refusals';

describe('client refusals', () => {
  it('carry a tool error code and name no site, tab or tool', () => {
    expect(parseToolError(NOT_SHARED_ERROR)?.code).toBe('unknown_tool');
    expect(parseToolError(LEFT_SHARED_SITE_ERROR)?.code).toBe('navigated');
    for (const text of [NOT_SHARED_ERROR, LEFT_SHARED_SITE_ERROR]) expect(text).not.toMatch(/https?:|\.example|tab \d/);
  });

  it('come as an error output with the text alone', () => {
    expect(refusalOutput(NOT_SHARED_ERROR)).toEqual({ content: [{ type: 'text', text: NOT_SHARED_ERROR }], isError: true });
  });
});
