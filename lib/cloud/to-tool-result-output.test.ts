import { describe, expect, it } from 'vitest';
import { toToolResultOutput } from './to-tool-result-output';

describe('toToolResultOutput', () => {
  it('joins text blocks as text, and reads resources as their text or URI', () => {
    expect(
      toToolResultOutput({
        content: [
          { type: 'text', text: 'Line one' },
          { type: 'resource', resource: { uri: 'https://shop.test/p/1', text: 'Blue mug' } },
          { type: 'resource', resource: { uri: 'https://shop.test/p/2' } },
        ],
      }),
    ).toEqual({ type: 'text', value: 'Line one\nBlue mug\nhttps://shop.test/p/2' });
  });

  it('sends images as files beside the text', () => {
    expect(
      toToolResultOutput({
        content: [
          { type: 'text', text: 'The chart:' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'The chart:' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      ],
    });
  });

  it('falls back to structuredContent, then says there was nothing', () => {
    expect(toToolResultOutput({ content: [], structuredContent: { total: 18 } })).toEqual({ type: 'text', value: '{"total":18}' });
    expect(toToolResultOutput({ content: [] })).toEqual({ type: 'text', value: 'The tool returned no content.' });
    expect(toToolResultOutput({} as never)).toEqual({ type: 'text', value: 'The tool returned no content.' });
  });
});
