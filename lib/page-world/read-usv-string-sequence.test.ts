import { describe, expect, it } from 'vitest';
import { readUSVStringSequence, toUSVString } from './read-usv-string-sequence';

const place = { operation: 'getTools', dictionary: 'ModelContextGetToolOptions', member: 'fromOrigins' };
const prefix =
  "Failed to execute 'getTools' on 'ModelContext': Failed to read the 'fromOrigins' property from 'ModelContextGetToolOptions': ";

describe('readUSVStringSequence', () => {
  it('reads any iterable as strings, and an absent member as undefined', () => {
    expect(readUSVStringSequence(undefined, place)).toBeUndefined();
    expect(readUSVStringSequence(['https://a.example', 1, ['x']], place)).toEqual(['https://a.example', '1', 'x']);
    expect(readUSVStringSequence(new Set(['a']), place)).toEqual(['a']);
    expect(readUSVStringSequence(['\uD800x'], place)).toEqual(['\uFFFDx']);
  });

  it('throws native’s TypeErrors', () => {
    expect(() => readUSVStringSequence('https://a.example', place)).toThrow(
      new TypeError(`${prefix}The provided value cannot be converted to a sequence.`),
    );
    expect(() => readUSVStringSequence(null, place)).toThrow(TypeError);
    expect(() => readUSVStringSequence({}, place)).toThrow(new TypeError(`${prefix}The object must have a callable @@iterator property.`));
    expect(() => readUSVStringSequence(['a', Symbol('s')], place)).toThrow(
      new TypeError(`${prefix}Cannot convert a Symbol value to a string`),
    );
  });

  it('keeps paired surrogates', () => {
    expect(toUSVString('\uD83D\uDE00')).toBe('\uD83D\uDE00');
    expect(toUSVString('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
  });
});
