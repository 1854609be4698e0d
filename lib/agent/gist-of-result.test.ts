import { describe, expect, it } from 'vitest';
import { gistOfResult } from './gist-of-result';

describe('gistOfResult', () => {
  it('uses a JSON result’s own message', () => {
    expect(gistOfResult('{"ok":true,"message":"Added Blue shoe to the cart.","count":2}')).toBe('Added Blue shoe to the cart.');
  });

  it('counts a list and names its first items', () => {
    expect(gistOfResult('[{"name":"A"},{"name":"B"},{"title":"C"}]')).toBe('3 results: A, B, C');
    expect(gistOfResult('{"results":[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6}]}')).toBe('6 results: 1, 2, 3, 4, 5, …');
    expect(gistOfResult('[]')).toBe('No results.');
  });

  it('lists the fields of a plain object', () => {
    expect(gistOfResult('{"total": 42, "currency": "EUR"}')).toBe('total: 42, currency: EUR');
  });

  it('cuts long text at a sentence end', () => {
    const long = `${'The first sentence is here. '.repeat(20)}`;
    const gist = gistOfResult(long, 100);
    expect(gist.length).toBeLessThanOrEqual(100);
    expect(gist.endsWith('.')).toBe(true);
    expect(gistOfResult('')).toBe('');
  });
});
