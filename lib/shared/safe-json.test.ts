import { describe, expect, it } from 'vitest';
import { safeJson } from './safe-json';

describe('safeJson', () => {
  it('writes JSON values as JSON', () => {
    expect(safeJson({ a: [1, 'x', null] })).toBe('{"a":[1,"x",null]}');
    expect(safeJson('text')).toBe('"text"');
  });

  it('gives an empty string for what JSON cannot hold', () => {
    expect(safeJson(undefined)).toBe('');
    expect(safeJson(() => 1)).toBe('');
    expect(safeJson(Symbol('s'))).toBe('');
  });

  it('falls back to String() for values JSON.stringify refuses, instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(safeJson(cyclic)).toBe('[object Object]');
    expect(safeJson(10n)).toBe('10');
  });
});
