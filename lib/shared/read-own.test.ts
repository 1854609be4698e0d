import { describe, expect, it } from 'vitest';
import { readOwn, setOwn } from './read-own';

describe('readOwn', () => {
  it('reads own properties only, and swallows a throwing getter', () => {
    expect(readOwn({ a: 1 }, 'a')).toBe(1);
    expect(readOwn({}, 'toString')).toBeUndefined();
    const hostile = Object.defineProperty({}, 'x', {
      get() {
        throw new Error('page getter');
      },
    });
    expect(readOwn(hostile, 'x')).toBeUndefined();
  });
});

describe('setOwn', () => {
  it('sets __proto__ as a name, not as the prototype', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.hasOwn(target, '__proto__')).toBe(true);
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}');
  });
});
