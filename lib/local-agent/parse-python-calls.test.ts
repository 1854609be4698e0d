import { describe, expect, it } from 'vitest';
import { parsePythonCalls } from './parse-python-calls';

describe('parsePythonCalls', () => {
  it('parses Python literals', () => {
    expect(parsePythonCalls('f(a=True, b=None, c=[1, 2.5, "x"], d={"k": (1, 2)}, e=-3e2, s="say \\"hi\\"\\n")')).toEqual([
      { name: 'f', args: [], kwargs: { a: true, b: null, c: [1, 2.5, 'x'], d: { k: [1, 2] }, e: -300, s: 'say "hi"\n' } },
    ]);
    expect(parsePythonCalls('f(a=')).toBeNull();
    expect(parsePythonCalls('not a call at all')).toBeNull();
  });

  it('reads a bracketed list of calls with positional and keyword arguments', () => {
    expect(parsePythonCalls("[add(1, 'x', k=2), tools.get_cart()]")).toEqual([
      { name: 'add', args: [1, 'x'], kwargs: { k: 2 } },
      { name: 'tools.get_cart', args: [], kwargs: {} },
    ]);
  });

  it('refuses a positional argument after a keyword, and text after the call', () => {
    expect(parsePythonCalls('f(a=1, 2)')).toBeNull();
    expect(parsePythonCalls('f() and more')).toBeNull();
    expect(parsePythonCalls('[f()')).toBeNull();
  });

  it('refuses nesting deeper than 64 instead of recursing without end', () => {
    expect(parsePythonCalls(`f(a=${'['.repeat(64)}${']'.repeat(64)})`)).toEqual([
      { name: 'f', args: [], kwargs: { a: expect.anything() } },
    ]);
    expect(parsePythonCalls(`f(a=${'['.repeat(65)}${']'.repeat(65)})`)).toBeNull();
  });
});
