import { describe, expect, it } from 'vitest';
import { NAVIGATED, serializeToolResult } from './serialize-tool-result';

describe('serializeToolResult', () => {
  it('resolves null for a call that navigated, a string as it is, an object as JSON', () => {
    expect(serializeToolResult(NAVIGATED)).toBeNull();
    expect(serializeToolResult('done')).toBe('done');
    expect(serializeToolResult({ ok: true, items: [1] })).toBe('{"ok":true,"items":[1]}');
    expect(serializeToolResult([1, 2])).toBe('[1,2]');
  });

  it('turns anything else into its string, as native', () => {
    expect(serializeToolResult(undefined)).toBe('undefined');
    expect(serializeToolResult(null)).toBe('null');
    expect(serializeToolResult(42)).toBe('42');
    expect(serializeToolResult(() => 1)).toBe('() => 1');
    expect(serializeToolResult({ toJSON: () => undefined, toString: () => 'plain' })).toBe('plain');
  });

  it("rejects with native's UnknownError a result that cannot be serialised", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [cyclic, { n: 1n }]) {
      expect(() => serializeToolResult(value)).toThrow(
        expect.objectContaining({ name: 'UnknownError', message: expect.stringContaining('Tool was executed but the invocation failed') }),
      );
    }
  });

  it('never throws for a value whose string conversion throws', () => {
    expect(typeof serializeToolResult(Symbol('s'))).toBe('string');
    expect(typeof serializeToolResult(Object.create(null))).toBe('string');
  });
});
