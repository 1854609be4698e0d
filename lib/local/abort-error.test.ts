import { describe, expect, it } from 'vitest';
import { abortError } from './abort-error';

describe('abortError', () => {
  it('is the signal’s own reason when it has one', () => {
    const stop = new AbortController();
    const reason = new Error('the person closed the panel');
    stop.abort(reason);
    expect(abortError(stop.signal)).toBe(reason);
  });

  it('is an AbortError for a signal that gives none', () => {
    const signal = { reason: undefined } as AbortSignal;
    expect(abortError(signal)).toMatchObject({ name: 'AbortError', message: 'The generation was stopped.' });
  });
});
