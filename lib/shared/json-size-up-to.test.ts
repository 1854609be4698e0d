import { describe, expect, it } from 'vitest';
import { jsonSizeUpTo } from './json-size-up-to';

describe('jsonSizeUpTo', () => {
  it('counts a value about as its JSON does', () => {
    const value = { a: 'xyz', b: [1, 2, { c: null, d: true }], e: 12.5 };
    const json = JSON.stringify(value).length;
    const counted = jsonSizeUpTo(value, 1_000);
    expect(counted).toBeGreaterThanOrEqual(json);
    expect(counted).toBeLessThanOrEqual(json + 20);
  });

  it('is Infinity past the limit, and stops walking there', () => {
    expect(jsonSizeUpTo('x'.repeat(30_000_000), 1_000_000)).toBe(Number.POSITIVE_INFINITY);
    let touched = 0;
    const big = new Proxy(
      Array.from({ length: 100_000 }, () => 'abcdefgh'),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) touched++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    expect(jsonSizeUpTo(big, 1_000)).toBe(Number.POSITIVE_INFINITY);
    expect(touched).toBeLessThan(200);
  });

  it('a cycle, a nesting too deep and a getter that throws count as Infinity', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonSizeUpTo(cycle, 1e9)).toBe(Number.POSITIVE_INFINITY);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(jsonSizeUpTo(deep, 1e9)).toBe(Number.POSITIVE_INFINITY);
    const throwing = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(jsonSizeUpTo(throwing, 1e9)).toBe(Number.POSITIVE_INFINITY);
  });
});
