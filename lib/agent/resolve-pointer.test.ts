import { describe, expect, it } from 'vitest';
import { resolvePointer } from './resolve-pointer';

describe('resolvePointer', () => {
  const root = { $defs: { 'a/b': { 'x~y': 1 }, list: [{ n: 2 }] }, '': 'empty key' };

  it('follows object keys and array indexes, with ~1, ~0 and percent escapes', () => {
    expect(resolvePointer(root, '')).toBe(root);
    expect(resolvePointer(root, '/$defs/a~1b/x~0y')).toBe(1);
    expect(resolvePointer(root, '/$defs/list/0/n')).toBe(2);
    expect(resolvePointer(root, '/%24defs/list/0/n')).toBe(2);
    expect(resolvePointer(root, '/')).toBe('empty key');
  });

  it('gives undefined for missing keys, inherited properties, bad escapes and pointers without a slash', () => {
    expect(resolvePointer(root, '/nope')).toBeUndefined();
    expect(resolvePointer(root, '/constructor')).toBeUndefined();
    expect(resolvePointer(root, '/%E0%A4%A')).toBeUndefined();
    expect(resolvePointer(root, '$defs')).toBeUndefined();
  });
});
