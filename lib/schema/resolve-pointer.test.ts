import { describe, expect, it } from 'vitest';
import { resolveLocalRef, resolvePointer } from './resolve-pointer';

describe('resolvePointer', () => {
  const root = { $defs: { 'a/b': { 'x~y': 1 }, list: [{ n: 2 }] }, '': 'empty key' };

  it('follows object keys and array indexes, with ~1 and ~0', () => {
    expect(resolvePointer(root, '')).toBe(root);
    expect(resolvePointer(root, '/$defs/a~1b/x~0y')).toBe(1);
    expect(resolvePointer(root, '/$defs/list/0/n')).toBe(2);
    expect(resolvePointer(root, '/')).toBe('empty key');
  });

  it('gives undefined for missing keys, inherited properties, non-index array steps and pointers without a slash', () => {
    expect(resolvePointer(root, '/nope')).toBeUndefined();
    expect(resolvePointer(root, '/constructor')).toBeUndefined();
    expect(resolvePointer(root, '/$defs/list/length')).toBeUndefined();
    expect(resolvePointer(root, '/$defs/list/01')).toBeUndefined();
    expect(resolvePointer(root, '$defs')).toBeUndefined();
  });
});

describe('resolveLocalRef', () => {
  const root = { $defs: { 'a/b': 'named a/b', a: { b: 'a then b' }, café: 'café', list: ['zero', 'one'] } };

  it('percent-decodes the fragment first, then reads it as a pointer (RFC 6901 § 6)', () => {
    expect(resolveLocalRef(root, '#')).toBe(root);
    expect(resolveLocalRef(root, '#/%24defs/caf%C3%A9')).toBe('café');
    expect(resolveLocalRef(root, '#/$defs/a%2Fb')).toBe('a then b');
    expect(resolveLocalRef(root, '#/$defs/a~1b')).toBe('named a/b');
    expect(resolveLocalRef(root, '#/$defs/list/1')).toBe('one');
  });

  it('gives undefined for remote references and bad escapes', () => {
    expect(resolveLocalRef(root, 'https://example.com/schema#/$defs/a')).toBeUndefined();
    expect(resolveLocalRef(root, 'other.json')).toBeUndefined();
    expect(resolveLocalRef(root, '#/%E0%A4%A')).toBeUndefined();
  });
});
