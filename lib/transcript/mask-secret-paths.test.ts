import { describe, expect, it } from 'vitest';
import { maskSecretPaths } from './mask-secret-paths';
import { REDACTED } from './redact-secrets';
import { ANY_ITEM } from './secret-paths-of';

describe('maskSecretPaths', () => {
  it('masks nested values and array items, and gives every text form of what it took out', () => {
    const input = {
      user: 'ada',
      card: { number: '4111111111111111', cvv: '7373' },
      cards: [{ pin: '9999', label: 'a' }, { label: 'b' }],
      vault: { a: 'alpha-secret', b: 1234567 },
    };
    const { masked, values } = maskSecretPaths(input, [['card', 'cvv'], ['cards', ANY_ITEM, 'pin'], ['vault']]);
    expect(masked).toEqual({
      user: 'ada',
      card: { number: '4111111111111111', cvv: REDACTED },
      cards: [{ pin: REDACTED, label: 'a' }, { label: 'b' }],
      vault: REDACTED,
    });
    expect(values).toEqual(['7373', '9999', '{"a":"alpha-secret","b":1234567}', 'alpha-secret', '1234567']);
    // The input itself is untouched.
    expect(input.card.cvv).toBe('7373');
  });

  it('leaves an input without the paths as it was, adds no keys, and masks the whole input for the empty path', () => {
    const input = { user: 'ada', card: 'none' };
    expect(maskSecretPaths(input, [['password'], ['card', 'cvv']])).toEqual({ masked: input, values: [] });
    expect(maskSecretPaths(input, [])).toEqual({ masked: input, values: [] });
    expect(maskSecretPaths(input, [[]]).masked).toBe(REDACTED);
    expect(maskSecretPaths(['x', 'y'], [['1']]).masked).toEqual(['x', REDACTED]);
    expect(maskSecretPaths({ flag: true, n: null }, [['flag'], ['n']]).values).toEqual([]);
  });
});
