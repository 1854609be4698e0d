import { describe, expect, it } from 'vitest';
import { readDictionaryArgument } from './read-dictionary-argument';

const place = { operation: 'executeTool', dictionary: 'ExecuteToolOptions' };

describe('readDictionaryArgument', () => {
  it('reads undefined and null as the empty dictionary, and an object or a function as itself', () => {
    expect(readDictionaryArgument(undefined, place)).toBeUndefined();
    expect(readDictionaryArgument(null, place)).toBeUndefined();
    const options = { signal: undefined };
    expect(readDictionaryArgument(options, place)).toBe(options);
    const fn = () => undefined;
    expect(readDictionaryArgument(fn, place)).toBe(fn);
  });

  it('refuses a primitive with native’s TypeError', () => {
    for (const value of [5, 's', true, Symbol('x'), 1n]) {
      expect(() => readDictionaryArgument(value, place)).toThrow(
        new TypeError("Failed to execute 'executeTool' on 'ModelContext': The provided value is not of type 'ExecuteToolOptions'."),
      );
    }
  });
});
