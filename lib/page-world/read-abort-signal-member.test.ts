import { describe, expect, it } from 'vitest';
import { readAbortSignalMember } from './read-abort-signal-member';

const place = { operation: 'registerTool', dictionary: 'ModelContextRegisterToolOptions', member: 'signal' };
const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get! as (this: unknown) => boolean;

describe('readAbortSignalMember', () => {
  it('takes an absent member as no signal, and an AbortSignal as itself, aborted or not', () => {
    expect(readAbortSignalMember(undefined, place, abortedGetter)).toBeUndefined();
    const signal = new AbortController().signal;
    expect(readAbortSignalMember(signal, place, abortedGetter)).toBe(signal);
    const aborted = AbortSignal.abort();
    expect(readAbortSignalMember(aborted, place, abortedGetter)).toBe(aborted);
  });

  it('refuses null, primitives and look-alikes with native’s TypeError', () => {
    const lookAlike = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
    const inherits = Object.create(AbortSignal.prototype);
    for (const value of [null, 5, 'signal', {}, lookAlike, inherits]) {
      expect(() => readAbortSignalMember(value, place, abortedGetter)).toThrow(
        new TypeError(
          "Failed to execute 'registerTool' on 'ModelContext': Failed to read the 'signal' property from 'ModelContextRegisterToolOptions': Failed to convert value to 'AbortSignal'.",
        ),
      );
    }
  });
});
