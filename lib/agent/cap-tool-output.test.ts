import { describe, expect, it } from 'vitest';
import { capToolOutput } from './cap-tool-output';

describe('capToolOutput', () => {
  it('leaves an output that fits untouched (its text and its structured content together)', () => {
    const output = { content: [{ type: 'text' as const, text: 'abc' }], structuredContent: { a: 1 } };
    expect(capToolOutput(output, 10)).toBe(output);
  });

  it('cuts text past the cap, drops structured content and says so', () => {
    const output = {
      content: [
        { type: 'text' as const, text: 'abcdef' },
        { type: 'text' as const, text: 'ghi' },
      ],
      structuredContent: { big: true },
    };
    expect(capToolOutput(output, 4)).toEqual({
      content: [
        { type: 'text', text: 'abcd' },
        { type: 'text', text: '[Output cut: the tool returned 21 characters; only the first 4 are shown.]' },
      ],
    });
  });

  it('keeps the error flag and drops an image that does not fit', () => {
    const output = {
      content: [
        { type: 'text' as const, text: 'ab' },
        { type: 'image' as const, data: 'x'.repeat(10), mimeType: 'image/png' },
      ],
      isError: true,
    };
    expect(capToolOutput(output, 5)).toEqual({
      content: [
        { type: 'text', text: 'ab' },
        { type: 'text', text: '[Output cut: the tool returned 21 characters; only the first 5 are shown.]' },
      ],
      isError: true,
    });
  });

  it('is Error [too_large] when nothing can be kept', () => {
    expect(capToolOutput({ content: [{ type: 'image', data: 'x'.repeat(10), mimeType: 'image/png' }] }, 5)).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error [too_large]: The tool returned 19 characters of content that cannot be cut to the 5-character limit.',
        },
      ],
      isError: true,
    });
  });
});

describe('capToolOutput counts everything sent to the model or stored', () => {
  const big = { rows: Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `row ${i}` })) };

  it('cuts {content: [], structuredContent: <2 MB>} to the cap, as the JSON the model would have read', () => {
    const output = { content: [] as never[], structuredContent: big };
    const capped = capToolOutput(output, 20_000);
    const chars = capped.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
    expect(chars).toBeLessThan(20_200);
    expect(capped.structuredContent).toBeUndefined();
    expect(capped.content[0]).toEqual({ type: 'text', text: JSON.stringify(big).slice(0, 20_000) });
    expect(capped.content.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[Output cut: the tool returned \d+ characters/),
    });
  });

  it('drops a structured copy that does not fit beside the text it repeats, and keeps that text whole', () => {
    const text = JSON.stringify({ a: 'x'.repeat(12_000) });
    const output = { content: [{ type: 'text' as const, text }], structuredContent: JSON.parse(text) };
    expect(capToolOutput(output, 20_000)).toEqual({ content: [{ type: 'text', text }] });
  });

  it('counts image MIME types and resource fields, which a page writes too', () => {
    const mime = { content: [{ type: 'image' as const, data: 'AAAA', mimeType: 'image/png'.padEnd(50_000, ' ') }] };
    expect(JSON.stringify(capToolOutput(mime, 20_000)).length).toBeLessThan(21_000);
    const resource = { content: [{ type: 'resource' as const, resource: { uri: 'u', mimeType: 'x'.repeat(50_000) } }] };
    expect(JSON.stringify(capToolOutput(resource, 20_000)).length).toBeLessThan(21_000);
  });

  it('leaves out blocks that are not MCP content (a compromised frame may send any shape)', () => {
    const output = {
      content: [
        { type: 'text', text: 'ok' },
        { type: 'text', text: 5 },
        { type: 'weird', blob: 'y'.repeat(50_000) },
      ],
    } as never;
    expect(capToolOutput(output, 20_000)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('never returns more than the cap plus its note, whatever the mix', () => {
    const output = {
      content: [
        { type: 'text' as const, text: 'a'.repeat(15_000) },
        { type: 'image' as const, data: 'b'.repeat(15_000), mimeType: 'image/png' },
      ],
      structuredContent: big,
      isError: true,
    };
    const capped = capToolOutput(output, 20_000);
    expect(JSON.stringify(capped).length).toBeLessThan(20_500);
    expect(capped.isError).toBe(true);
  });
});
