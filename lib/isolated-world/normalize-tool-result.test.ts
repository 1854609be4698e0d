import { describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { normalizeToolResult } from './normalize-tool-result';

describe('normalizeToolResult', () => {
  it('keeps a plain string as text', () => {
    expect(normalizeToolResult('hello')).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('reads JSON text (what native executeTool returns) as structured content', () => {
    expect(normalizeToolResult('{"a":1}')).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(normalizeToolResult('[1,2]')).toEqual({ content: [{ type: 'text', text: '[1,2]' }], structuredContent: [1, 2] });
  });

  it('unwraps an MCP result, as JSON text or as an object', () => {
    const mcp = { content: [{ type: 'text', text: 'x' }], isError: true, structuredContent: { n: 1 } };
    expect(normalizeToolResult(JSON.stringify(mcp))).toEqual(mcp);
    expect(normalizeToolResult({ content: [{ type: 'text', text: 'y' }], isError: false })).toEqual({
      content: [{ type: 'text', text: 'y' }],
    });
  });

  it('keeps only known content blocks as they are, and describes the rest as JSON text', () => {
    expect(
      normalizeToolResult({
        content: [
          { type: 'image', data: 'AAA', mimeType: 'image/png' },
          { type: 'audio', data: 'x' },
        ],
      }),
    ).toEqual({
      content: [
        { type: 'image', data: 'AAA', mimeType: 'image/png' },
        { type: 'text', text: '{"type":"audio","data":"x"}' },
      ],
    });
  });

  it('describes values that are not JSON without throwing', () => {
    expect(normalizeToolResult(undefined)).toEqual({ content: [{ type: 'text', text: 'undefined' }] });
    expect(normalizeToolResult(42)).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(normalizeToolResult(10n)).toEqual({ content: [{ type: 'text', text: '10' }] });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(normalizeToolResult(cyclic)).toEqual({ content: [{ type: 'text', text: '[object Object]' }] });
    expect(normalizeToolResult('{not json')).toEqual({ content: [{ type: 'text', text: '{not json' }] });
  });

  it.each(HOSTILE_THROWN)('describes %s without throwing', (_label, make) => {
    const output = normalizeToolResult(make());
    expect(output.content).toHaveLength(1);
    expect(output.content[0]).toMatchObject({ type: 'text', text: expect.any(String) });
  });
});
