import { describe, expect, it } from 'vitest';
import { manualClock } from '../testing/manual-clock';
import { createPageBudget } from './create-page-budget';
import { PAGE_LIMITS } from './page-limits';
import type { PageLimitKind } from '../messaging/tab-tool-snapshot';

const frame = (tabId: number, frameId: number, origin = 'https://shop.test') => ({ tabId, frameId, origin });
/** An offer of `bytes` that records when it is measured and taken. */
const offer = (bytes: number, log: string[], name: string) => ({
  measure: () => {
    log.push(`measure ${name}`);
    return bytes;
  },
  take: () => log.push(name),
});
const taken = (log: string[]) => log.filter((e) => !e.startsWith('measure '));

describe('createPageBudget: reports', () => {
  it('tells an ordinary frame it may report whenever it likes, and a flooding frame how long to wait', () => {
    const { clock } = manualClock();
    const budget = createPageBudget({ clock });
    const log: string[] = [];
    expect(budget.offerReport(frame(1, 0), offer(6_000, log, 'ordinary'))).toBe(0);
    // 300 KB a time from one frame (512 KB a burst, 128 KB a second): taken, but one more would wait for its bucket;
    // past its burst the frame is held, and asked to wait longer.
    const waits = Array.from({ length: 4 }, (_, i) => budget.offerReport(frame(2, 0), offer(300_000, log, `flood${i}`)));
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits.at(-1)).toBeGreaterThan(waits[0]);
    expect(waits.at(-1)).toBeGreaterThan(1_000);
  });

  it("sixteen frames of one tab are asked to wait for the frames held ahead of them, so the tab's pace is shared", () => {
    const { clock } = manualClock();
    const budget = createPageBudget({ clock });
    const log: string[] = [];
    const waits = Array.from({ length: 16 }, (_, f) => budget.offerReport(frame(3, f), offer(300_000, log, `f${f}`)));
    // The tab's 1 MB burst takes three; each frame after waits longer than the one before it.
    expect(taken(log)).toHaveLength(3);
    const held = waits.slice(4);
    for (let i = 1; i < held.length; i++) expect(held[i]).toBeGreaterThan(held[i - 1]);
    // Never more than the most a frame is asked to wait.
    expect(Math.max(...waits)).toBeLessThanOrEqual(10_000);
  });

  it("takes an ordinary page's reports at once: one every 250 ms, for a minute", () => {
    const { clock, advance, pending } = manualClock();
    const budget = createPageBudget({ clock });
    const log: string[] = [];
    let offered = 0;
    for (let t = 0; t < 60_000; t += 250) {
      budget.offerReport(frame(1, 0), offer(6_000, log, `r${offered++}`));
      expect(pending()).toBe(0);
      advance(250);
    }
    expect(taken(log)).toHaveLength(offered);
  });

  it('holds a frame that reports faster than its bytes allow: the latest waits, and goes in when the bucket refills', () => {
    const { clock, advance, pending } = manualClock();
    const budget = createPageBudget({ clock, limits: { frameBurstBytes: 1_000, frameBytesPerSecond: 1_000 } });
    const log: string[] = [];
    budget.offerReport(frame(1, 3), offer(800, log, 'first'));
    budget.offerReport(frame(1, 3), offer(800, log, 'second'));
    budget.offerReport(frame(1, 3), offer(800, log, 'third'));
    expect(taken(log)).toEqual(['first']);
    expect(pending()).toBe(1);
    // 200 bytes left; 800 needs 600 ms more.
    advance(599);
    expect(taken(log)).toEqual(['first']);
    advance(1);
    expect(taken(log)).toEqual(['first', 'third']);
    expect(pending()).toBe(0);
  });

  it('a small report (a document going away) overtakes a large one that waits, which is then dropped', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock, limits: { frameBurstBytes: 1_000, frameBytesPerSecond: 1_000 } });
    const log: string[] = [];
    budget.offerReport(frame(1, 3), offer(1_000, log, 'full'));
    budget.offerReport(frame(1, 3), offer(1_000, log, 'full again'));
    advance(10);
    budget.offerReport(frame(1, 3), offer(5, log, 'empty'));
    advance(5_000);
    expect(taken(log)).toEqual(['full', 'empty']);
  });

  it('a report larger than a bucket waits for a full bucket, never forever', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock, limits: { frameBurstBytes: 1_000, frameBytesPerSecond: 1_000 } });
    const log: string[] = [];
    budget.offerReport(frame(1, 0), offer(50_000, log, 'huge'));
    budget.offerReport(frame(1, 0), offer(50_000, log, 'huge again'));
    expect(taken(log)).toEqual(['huge']);
    advance(1_000);
    expect(taken(log)).toEqual(['huge', 'huge again']);
  });

  it('sixteen frames of one tab share one budget: 64 reports a second go in at 5 a second, each frame’s latest last', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock });
    const log: string[] = [];
    for (let t = 0; t < 20_000; t += 250) {
      for (let f = 1; f <= 16; f++) budget.offerReport(frame(1, f), offer(300, log, `f${f}@${t}`));
      advance(250);
    }
    const went = taken(log).length;
    // The burst, then the tab's rate: 20 + 20 s × 5.
    expect(went).toBeLessThanOrEqual(PAGE_LIMITS.reportBurstPerTab + 20 * PAGE_LIMITS.reportsPerSecondPerTab + 1);
    expect(went).toBeGreaterThanOrEqual(20 * PAGE_LIMITS.reportsPerSecondPerTab);
    // Nothing measured that did not count: a report is measured only once admitted.
    expect(log.filter((e) => e.startsWith('measure ')).length).toBe(went);
  });

  it('tabs of one site share a site budget; a quiet tab of that site still gets in while one tab floods', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock });
    const log: string[] = [];
    let flood = 0;
    let other = 0;
    for (let t = 0; t < 10_000; t += 50) {
      // Five flooding tabs of one site, twenty reports a second each.
      for (let tab = 1; tab <= 5; tab++) budget.offerReport(frame(tab, 0), { measure: () => 100, take: () => flood++ });
      advance(50);
    }
    // Five tabs at five a second each would be 25 a second: the site holds them to 10 (after its burst).
    expect(flood).toBeLessThanOrEqual(PAGE_LIMITS.reportBurstPerSite + 10 * PAGE_LIMITS.reportsPerSecondPerSite + 5);
    // A tab of another site is not held by it.
    budget.offerReport(frame(9, 0, 'https://other.test'), { measure: () => 100, take: () => other++ });
    expect(other).toBe(1);
    expect(log).toEqual([]);
  });

  it('one flooding tab leaves room for another tab of the same site', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock });
    let errand = 0;
    for (let t = 0; t < 10_000; t += 50) {
      for (let f = 1; f <= 16; f++) budget.offerReport(frame(1, f), { measure: () => 100, take: () => undefined });
      if (t % 1_000 === 0) budget.offerReport(frame(2, 0), { measure: () => 100, take: () => errand++ });
      advance(50);
    }
    expect(errand).toBe(10);
  });

  it('a report over the size limit is refused whole, and measuring it stops at the limit', () => {
    const { clock } = manualClock();
    const told: PageLimitKind[] = [];
    const budget = createPageBudget({ clock }, (_tab, kind) => told.push(kind));
    const log: string[] = [];
    budget.offerReport(frame(1, 0), offer(Number.POSITIVE_INFINITY, log, 'too big'));
    expect(taken(log)).toEqual([]);
    expect(told).toEqual(['report-size']);
  });

  it("a closed tab's held reports are dropped", () => {
    const { clock, advance, pending } = manualClock();
    const budget = createPageBudget({ clock, limits: { frameBurstBytes: 1_000, frameBytesPerSecond: 1_000 } });
    const log: string[] = [];
    budget.offerReport(frame(7, 0), offer(1_000, log, 'a'));
    budget.offerReport(frame(7, 0), offer(1_000, log, 'b'));
    budget.offerReport(frame(70, 0), offer(1_000, log, 'tab 70'));
    budget.forgetTab(7);
    expect(pending()).toBe(0);
    advance(5_000);
    expect(taken(log)).toEqual(['a', 'tab 70']);
  });

  it('tells of a limit once a while, not on every refusal', () => {
    const { clock, advance } = manualClock();
    const told: string[] = [];
    const budget = createPageBudget({ clock }, (tab, kind) => told.push(`${tab} ${kind}`));
    for (let i = 0; i < 200; i++) budget.offerReport(frame(1, i % 16), { measure: () => 10, take: () => undefined });
    expect(told).toEqual(['1 reports']);
    advance(10_000);
    for (let i = 0; i < 200; i++) budget.offerReport(frame(1, i % 16), { measure: () => 10, take: () => undefined });
    expect(told).toEqual(['1 reports', '1 reports']);
  });
});

describe('createPageBudget: messages, frames, navigations', () => {
  it('admits a tab’s messages up to its burst, then at its rate; another tab is not held', () => {
    const { clock, advance } = manualClock();
    const told: string[] = [];
    const budget = createPageBudget({ clock }, (tab, kind) => told.push(`${tab} ${kind}`));
    let admitted = 0;
    for (let i = 0; i < 10_000; i++) if (budget.admitMessage(frame(1, 0))) admitted++;
    expect(admitted).toBe(PAGE_LIMITS.messageBurstPerTab);
    expect(budget.admitMessage(frame(2, 0))).toBe(true);
    advance(1_000);
    admitted = 0;
    for (let i = 0; i < 10_000; i++) if (budget.admitMessage(frame(1, 0))) admitted++;
    expect(admitted).toBe(PAGE_LIMITS.messagesPerSecondPerTab);
    expect(told).toEqual(['1 messages']);
  });

  it('hears from 64 frames of a tab and the top, not from a 65th, until a new top document', () => {
    const { clock, advance } = manualClock();
    const told: string[] = [];
    const budget = createPageBudget({ clock }, (tab, kind) => told.push(`${tab} ${kind}`));
    for (let f = 1; f <= 64; f++) expect(budget.admitMessage(frame(1, f))).toBe(true);
    expect(budget.admitMessage(frame(1, 65))).toBe(false);
    expect(budget.admitMessage(frame(1, 0))).toBe(true);
    expect(budget.admitMessage(frame(1, 64))).toBe(true);
    expect(told).toEqual(['1 frames']);
    advance(1_000);
    budget.newTopDocument(1);
    expect(budget.admitMessage(frame(1, 65))).toBe(true);
  });

  it('admits frames before they speak within the same limit, counting them, so a bridge goes only where it is heard', () => {
    const { clock } = manualClock();
    const told: string[] = [];
    const budget = createPageBudget({ clock }, (tab, kind) => told.push(`${tab} ${kind}`));
    for (let f = 1; f <= 60; f++) expect(budget.admitMessage(frame(1, f))).toBe(true);
    // The top, the 60 heard from, and four new ones, in the order given; the rest are left out, and the page told.
    const asked = [0, ...Array.from({ length: 100 }, (_, i) => i + 1)];
    expect(budget.admitFrames(1, asked)).toEqual(asked.slice(0, 65));
    expect(told).toEqual(['1 frames']);
    // Those admitted are counted: a frame not among them is not heard when it speaks; one among them is.
    expect(budget.admitMessage(frame(1, 65))).toBe(false);
    expect(budget.admitMessage(frame(1, 64))).toBe(true);
    // Another tab has its own count.
    expect(budget.admitFrames(2, [5, 6])).toEqual([5, 6]);
  });

  it('admits a burst of page loads, then one a second', () => {
    const { clock, advance } = manualClock();
    const budget = createPageBudget({ clock });
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (budget.admitNavigation(1)) admitted++;
    expect(admitted).toBe(PAGE_LIMITS.navigationBurstPerTab);
    advance(999);
    expect(budget.admitNavigation(1)).toBe(false);
    advance(1);
    expect(budget.admitNavigation(1)).toBe(true);
    expect(budget.admitNavigation(2)).toBe(true);
  });
});
