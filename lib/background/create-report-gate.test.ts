import { describe, expect, it } from 'vitest';
import { manualClock } from '../testing/manual-clock';
import { createReportGate, REPORT_BURST_BYTES, REPORT_BYTES_PER_SECOND } from './create-report-gate';

describe('createReportGate', () => {
  it("takes an ordinary page's reports at once, even one every 50 ms (the frame's own debounce)", () => {
    const { clock, advance, pending } = manualClock();
    const gate = createReportGate({ clock });
    let offered = 0;
    let taken = 0;
    for (let t = 0; t < 30_000; t += 50) {
      offered++;
      gate.offer('1:0', 6_000, () => taken++);
      expect(pending()).toBe(0);
      advance(50);
    }
    expect(taken).toBe(offered);
  });

  it('holds a frame that reports faster than its budget: one report waits, the latest, and goes in when the bucket refills', () => {
    const { clock, advance, pending } = manualClock();
    const gate = createReportGate({ clock, burstBytes: 1_000, bytesPerSecond: 1_000 });
    const taken: string[] = [];
    gate.offer('1:3', 800, () => taken.push('first'));
    gate.offer('1:3', 800, () => taken.push('second'));
    gate.offer('1:3', 800, () => taken.push('third'));
    expect(taken).toEqual(['first']);
    expect(pending()).toBe(1);
    // 200 bytes left; 800 needs 600 ms more.
    advance(599);
    expect(taken).toEqual(['first']);
    advance(1);
    expect(taken).toEqual(['first', 'third']);
    expect(pending()).toBe(0);
  });

  it('a small report (a document going away) overtakes a large one that waits, which is then dropped', () => {
    const { clock, advance } = manualClock();
    const gate = createReportGate({ clock, burstBytes: 1_000, bytesPerSecond: 1_000 });
    const taken: string[] = [];
    gate.offer('1:3', 1_000, () => taken.push('full'));
    gate.offer('1:3', 1_000, () => taken.push('full again'));
    advance(10);
    gate.offer('1:3', 5, () => taken.push('empty'));
    advance(5_000);
    expect(taken).toEqual(['full', 'empty']);
  });

  it("one frame's flood holds no other frame's report, nor another tab's", () => {
    const { clock } = manualClock();
    const gate = createReportGate({ clock, burstBytes: 1_000, bytesPerSecond: 1_000 });
    const taken: string[] = [];
    for (let i = 0; i < 50; i++) gate.offer('1:3', 900, () => taken.push(`flood ${i}`));
    gate.offer('1:4', 900, () => taken.push('sibling'));
    gate.offer('2:0', 900, () => taken.push('other tab'));
    expect(taken).toEqual(['flood 0', 'sibling', 'other tab']);
  });

  it('a report larger than the bucket waits for a full bucket, never forever', () => {
    const { clock, advance } = manualClock();
    const gate = createReportGate({ clock, burstBytes: 1_000, bytesPerSecond: 1_000 });
    const taken: string[] = [];
    gate.offer('1:0', 50_000, () => taken.push('huge'));
    gate.offer('1:0', 50_000, () => taken.push('huge again'));
    expect(taken).toEqual(['huge']);
    advance(1_000);
    expect(taken).toEqual(['huge', 'huge again']);
  });

  it("a closed tab's waiting reports are dropped", () => {
    const { clock, advance, pending } = manualClock();
    const gate = createReportGate({ clock, burstBytes: 1_000, bytesPerSecond: 1_000 });
    const taken: string[] = [];
    gate.offer('7:0', 1_000, () => taken.push('a'));
    gate.offer('7:0', 1_000, () => taken.push('b'));
    gate.offer('70:0', 1_000, () => taken.push('tab 70'));
    gate.forgetTab(7);
    expect(pending()).toBe(0);
    advance(5_000);
    expect(taken).toEqual(['a', 'tab 70']);
  });

  it('by default a frame reporting 340 KB four times a second (trust-frames.spec.ts, the flood page) is taken in at most every ~2.7 s', () => {
    const { clock, advance } = manualClock();
    const gate = createReportGate({ clock });
    let taken = 0;
    for (let t = 0; t < 60_000; t += 250) {
      gate.offer('1:1', 340 * 1024, () => taken++);
      advance(250);
    }
    // The burst, then the rate: 60 s × 128 KiB/s ÷ 340 KiB.
    const expected = (REPORT_BURST_BYTES + 60 * REPORT_BYTES_PER_SECOND) / (340 * 1024);
    expect(taken).toBeGreaterThanOrEqual(Math.floor(expected) - 1);
    expect(taken).toBeLessThanOrEqual(Math.ceil(expected));
    expect(taken).toBeLessThan(240 / 8);
  });
});
