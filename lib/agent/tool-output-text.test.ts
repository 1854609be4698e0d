import { describe, expect, it } from 'vitest';
import { toolOutputText } from './tool-output-text';
import type { ToolOutput } from './types';

describe('toolOutputText', () => {
  it('joins text and names images and resources', () => {
    expect(
      toolOutputText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'x', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'u', text: 'r' } },
          { type: 'resource', resource: { uri: 'file://b' } },
        ],
      }),
    ).toBe('a\n[image image/png]\nr\n[resource file://b]');
  });

  it('uses structured content when there is no text', () => {
    expect(toolOutputText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  });

  it('makes a failure read as an error', () => {
    expect(toolOutputText({ content: [{ type: 'text', text: 'boom' }], isError: true })).toBe('Error: boom');
    expect(toolOutputText({ content: [{ type: 'text', text: 'Error [timeout]: slow' }], isError: true })).toBe('Error [timeout]: slow');
    expect(toolOutputText({ content: [], isError: true })).toBe('Error: the tool failed without a message.');
  });

  it('tolerates malformed outputs', () => {
    expect(toolOutputText(undefined)).toBe('');
    expect(toolOutputText({ content: 'x' } as unknown as ToolOutput)).toBe('');
    expect(toolOutputText({ content: [null, { type: 'text' }] } as unknown as ToolOutput)).toBe('');
  });
});
