import { describe, expect, it } from 'vitest';
import { maskApiKey } from './mask-api-key';

describe('maskApiKey', () => {
  it('keeps the kind prefix and the last four characters of a long key', () => {
    expect(maskApiKey('sk-proj-abcdefghijklmnopqrstuvwxyz0123')).toBe('sk-…0123');
  });

  it('reveals less of shorter keys, and never the whole key', () => {
    expect(maskApiKey('abcdefgh12')).toBe('…12');
    expect(maskApiKey('abc')).toBe('…');
    for (const key of ['sk-1234567890abcdefghij', 'abcdefgh', 'x']) {
      expect(maskApiKey(key)).not.toContain(key.slice(0, -4) || key);
    }
  });
});
