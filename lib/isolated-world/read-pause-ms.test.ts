import { describe, expect, it } from 'vitest';
import { readPauseMs } from './read-pause-ms';

describe('readPauseMs', () => {
  it('an ordinary read is no pause worth having: under the 250 ms between reports', () => {
    expect(readPauseMs(2, 1)).toBe(20);
  });

  it('a read that carried sixteen frames’ tools pauses each of them sixteen times longer', () => {
    expect(readPauseMs(50, 16)).toBe(8_000);
  });

  it('a clock that went back or gave no time is no pause', () => {
    expect(readPauseMs(-5, 3)).toBe(0);
    expect(readPauseMs(Number.NaN, 3)).toBe(0);
    expect(readPauseMs(10, 0)).toBe(100);
  });
});
