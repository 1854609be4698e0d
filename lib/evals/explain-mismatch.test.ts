import { describe, expect, it } from 'vitest';
import { explainMismatch, matchesArgument, patternToRegExp } from './explain-mismatch';

describe('matchesArgument', () => {
  it('matches equal primitives and refuses different ones', () => {
    expect(matchesArgument('Tokyo', 'Tokyo')).toBe(true);
    expect(matchesArgument('Tokyo', 'tokyo')).toBe(false);
    expect(matchesArgument(1, '1')).toBe(false);
    expect(matchesArgument(null, undefined)).toBe(false);
  });

  it('matches objects as a subset: extra actual keys are fine, missing expected keys are not', () => {
    expect(matchesArgument({ query: 'hat' }, { query: 'hat', page: 2 })).toBe(true);
    expect(matchesArgument({ query: 'hat', page: 2 }, { query: 'hat' })).toBe(false);
    expect(matchesArgument({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(true);
  });

  it('matches arrays strictly: same length, element by element', () => {
    expect(matchesArgument(['gym', 'breakfast'], ['gym', 'breakfast'])).toBe(true);
    expect(matchesArgument(['gym', 'breakfast'], ['breakfast', 'gym'])).toBe(false);
    expect(matchesArgument(['gym'], ['gym', 'pool'])).toBe(false);
    expect(matchesArgument([{ sku: 'a' }], [{ sku: 'a', qty: 1 }])).toBe(true);
  });

  it('evaluates every constraint operator', () => {
    expect(matchesArgument({ $pattern: '^[Hh]at$' }, 'Hat')).toBe(true);
    expect(matchesArgument({ $pattern: '^[Hh]at$' }, 'cap')).toBe(false);
    expect(matchesArgument({ $pattern: '(?i)^colou?r$' }, 'COLOR')).toBe(true);
    expect(matchesArgument({ $pattern: 'x' }, 3)).toBe(false);
    expect(matchesArgument({ $contains: 'York' }, 'New York')).toBe(true);
    expect(matchesArgument({ $contains: 'York' }, 'Paris')).toBe(false);
    expect(matchesArgument({ $gt: 1, $lte: 120 }, 120)).toBe(true);
    expect(matchesArgument({ $gt: 1, $lte: 120 }, 121)).toBe(false);
    expect(matchesArgument({ $gte: 1 }, '5')).toBe(false);
    expect(matchesArgument({ $lt: 0 }, -1)).toBe(true);
    expect(matchesArgument({ $type: 'array' }, [])).toBe(true);
    expect(matchesArgument({ $type: 'object' }, [])).toBe(false);
    expect(matchesArgument({ $type: 'null' }, null)).toBe(true);
    expect(matchesArgument({ $type: 'string' }, 1)).toBe(false);
    expect(matchesArgument({ $any: true }, 'anything')).toBe(true);
  });

  it('needs a key constrained by $any to be present', () => {
    expect(matchesArgument({ note: { $any: true } }, { note: null })).toBe(true);
    expect(matchesArgument({ note: { $any: true } }, {})).toBe(false);
  });

  it('applies constraints nested inside objects and arrays', () => {
    const expected = { items: [{ sku: { $pattern: '^p\\d+$' }, qty: { $gte: 1 } }] };
    expect(matchesArgument(expected, { items: [{ sku: 'p3', qty: 2 }] })).toBe(true);
    expect(matchesArgument(expected, { items: [{ sku: 'x3', qty: 2 }] })).toBe(false);
  });
});

describe('explainMismatch', () => {
  it('says where and why, one sentence per difference', () => {
    expect(
      explainMismatch({ query: { $contains: 'York' }, items: [{ qty: 1 }], page: 1 }, { query: 'Paris', items: [{ qty: 2 }] }),
    ).toEqual(['query: expected to contain "York", got "Paris"', 'items[0].qty: expected 1, got 2', 'page: missing']);
  });

  it('is empty when the value matches', () => {
    expect(explainMismatch({ a: [1, { $type: 'string' }] }, { a: [1, 'x'], b: 2 })).toEqual([]);
  });
});

describe('patternToRegExp', () => {
  it('turns a leading inline flag group into flags', () => {
    expect(patternToRegExp('(?i)abc').flags).toBe('i');
  });

  it('refuses flags JavaScript does not have, naming the pattern', () => {
    expect(() => patternToRegExp('(?x)a b')).toThrow(/\(\?x\)/);
  });
});
