import { describe, expect, it } from 'vitest';
import { capToolOutput } from './cap-tool-output';

describe('capToolOutput', () => {
  it('leaves an output that fits untouched', () => {
    const output = { content: [{ type: 'text' as const, text: 'abc' }], structuredContent: { a: 1 } };
    expect(capToolOutput(output, 3)).toBe(output);
  });

  it('cuts text past the cap, drops structured content and says so', () => {
    const output = { content: [{ type: 'text' as const, text: 'abcdef' }, { type: 'text' as const, text: 'ghi' }], structuredContent: { big: true } };
    expect(capToolOutput(output, 4)).toEqual({
      content: [
        { type: 'text', text: 'abcd' },
        { type: 'text', text: '[Output cut: the tool returned 9 characters; only the first 4 are shown.]' },
      ],
    });
  });

  it('keeps the error flag and drops an image that does not fit', () => {
    const output = {
      content: [{ type: 'text' as const, text: 'ab' }, { type: 'image' as const, data: 'x'.repeat(10), mimeType: 'image/png' }],
      isError: true,
    };
    expect(capToolOutput(output, 5)).toEqual({
      content: [
        { type: 'text', text: 'ab' },
        { type: 'text', text: '[Output cut: the tool returned 12 characters; only the first 5 are shown.]' },
      ],
      isError: true,
    });
  });

  it('is Error [too_large] when nothing can be kept', () => {
    expect(capToolOutput({ content: [{ type: 'image', data: 'x'.repeat(10), mimeType: 'image/png' }] }, 5)).toEqual({
      content: [{ type: 'text', text: 'Error [too_large]: The tool returned 10 characters of content that cannot be cut to the 5-character limit.' }],
      isError: true,
    });
  });
});
