import { describe, expect, it } from 'vitest';
import { readToolAnnotations } from './read-tool-annotations';

describe('readToolAnnotations', () => {
  it('is absent when the page gave no annotations object', () => {
    for (const value of [undefined, null, true, 'readOnlyHint']) expect(readToolAnnotations(value)).toBeUndefined();
  });

  it('lists every known hint, true only where the page said so, and nothing else', () => {
    expect(readToolAnnotations({ readOnlyHint: 1, made: true })).toEqual({
      consequentialHint: false,
      debugging: false,
      readOnlyHint: true,
      untrustedContentHint: false,
    });
    expect(Object.keys(readToolAnnotations({}) ?? {})).toEqual(['consequentialHint', 'debugging', 'readOnlyHint', 'untrustedContentHint']);
  });
});
