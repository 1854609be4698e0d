import { describe, expect, it } from 'vitest';
import { ISOLATED_KEYS_GLOBAL, isolatedKeys } from './connector-keys';

describe('isolatedKeys', () => {
  it('creates the array once and hands the same one to every later reader', () => {
    const scope: Record<string, unknown> = {};
    const first = isolatedKeys(scope);
    first.push('k1');
    expect(isolatedKeys(scope)).toBe(first);
    expect(scope[ISOLATED_KEYS_GLOBAL]).toEqual(['k1']);
  });
});
