import { describe, expect, it } from 'vitest';
import { parseJson } from './parse-json';

describe('parseJson', () => {
  it('parses valid JSON of any kind', () => {
    expect(parseJson(' {"a": [1, 2]} ', false)).toEqual({ a: [1, 2] });
    expect(parseJson('"text"', false)).toBe('text');
  });

  it('gives undefined for empty text and, without repair, for broken JSON', () => {
    expect(parseJson('   ', true)).toBeUndefined();
    expect(parseJson("{'a': 1,}", false)).toBeUndefined();
  });

  it('repairs quotes, trailing commas, Python literals and missing brackets when asked', () => {
    expect(parseJson("{'a': 1, 'b': True, 'c': None,}", true)).toEqual({ a: 1, b: true, c: null });
    expect(parseJson('{"name": "x", "arguments": {"q": "tent"', true)).toEqual({ name: 'x', arguments: { q: 'tent' } });
  });

  it('does not pass off prose as repaired JSON', () => {
    expect(parseJson('I want to search for shoes', true)).toBeUndefined();
  });
});
