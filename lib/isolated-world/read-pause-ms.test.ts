import { describe, expect, it } from 'vitest';
import { expectedReadMs, MAX_READ_PAUSE_MS, readPauseMs } from './read-pause-ms';

const light = { entries: 3, chars: 600 };

describe('readPauseMs', () => {
  it('an ordinary read is no pause worth having: under the 250 ms between reports', () => {
    expect(readPauseMs(2, 1, light)).toBe(20);
  });

  it('a read that carried sixteen frames’ tools pauses each of them sixteen times longer', () => {
    expect(readPauseMs(50, 16, { entries: 3_200, chars: 4_800_000 })).toBe(8_000);
  });

  it('a read that carried little is charged what it should take, however long a busy machine made it (issue 45)', () => {
    // Measured with the CPU slowed 20×: a read of three tools in two frames took 351 ms, which paused the next
    // report 7 s; charged what three tools cost, the pause stays under the 250 ms between reports.
    expect(readPauseMs(351, 2, light)).toBe(expectedReadMs(light) * 2 * 10);
    expect(readPauseMs(351, 2, light)).toBeLessThan(250);
  });

  it('a read that carried megabytes or thousands of tools is charged its whole time, up to 10 s per frame it carried', () => {
    expect(readPauseMs(300, 17, { entries: 3_200, chars: 4_800_000 })).toBe(300 * 17 * 10);
    // An entry too heavy to measure cheaply: nothing is known to bound the time by, but one frame waits at most 10 s.
    expect(readPauseMs(700, 1, { entries: 20, chars: Number.POSITIVE_INFINITY })).toBe(7_000);
    expect(readPauseMs(7_300, 1, { entries: 20, chars: Number.POSITIVE_INFINITY })).toBe(10_000);
    expect(readPauseMs(7_300, 3, { entries: 20, chars: Number.POSITIVE_INFINITY })).toBe(30_000);
  });

  it('the frames a read carried together read about once in 10 s at most, not each of them (issue 45, the native flood)', () => {
    // Measured on Chromium 156: the flood's frames each read 3,200 tools in about 300 ms; held to 10 s each, its
    // seventeen frames read 29 times in 15 s, and each answer took the browser's main thread about 160 ms.
    const flood = { entries: 3_200, chars: 4_800_000 };
    expect(readPauseMs(300, 17, flood)).toBeGreaterThan(17 * 2_500);
    // However many frames: a frame whose tools change is listed at least once a minute.
    expect(readPauseMs(6_000, 17, flood)).toBe(MAX_READ_PAUSE_MS);
    expect(readPauseMs(6_000, 64, flood)).toBe(60_000);
  });

  it('a clock that went back or gave no time is no pause', () => {
    expect(readPauseMs(-5, 3, light)).toBe(0);
    expect(readPauseMs(Number.NaN, 3, light)).toBe(0);
    expect(readPauseMs(5, 0, light)).toBe(50);
  });
});
