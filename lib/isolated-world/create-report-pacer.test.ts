import { describe, expect, it } from 'vitest';
import { manualClock } from '../testing/manual-clock';
import { createReportPacer } from './create-report-pacer';

/** A page whose "list" is a counter the test moves; each send records the list it read. */
function setup() {
  const { clock, advance } = manualClock();
  let version = 0;
  const sent: { at: number; version: number }[] = [];
  const pacer = createReportPacer({
    clock,
    send: async () => {
      sent.push({ at: clock.now(), version });
      return true;
    },
  });
  const change = () => {
    version++;
    pacer.changed();
  };
  // Lets the pacer's awaited send finish between clock steps.
  const step = async (ms: number) => {
    advance(ms);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { change, step, sent, clock, pacer };
}

describe('createReportPacer', () => {
  it('reports a quiet page’s change 50 ms after it, the changes of that moment together', async () => {
    const { change, step, sent } = setup();
    change();
    change();
    change();
    await step(49);
    expect(sent).toEqual([]);
    await step(1);
    expect(sent).toEqual([{ at: 50, version: 3 }]);
  });

  it('a page changing a thousand times a second is reported every 250 ms, always its newest list, and the router slows it further', async () => {
    const { change, step, sent, pacer } = setup();
    for (let t = 0; t < 10_000; t++) {
      change();
      await step(1);
    }
    // 50, then every 250 ms: 40 reports in 10 s instead of 10,000.
    expect(sent.length).toBeLessThanOrEqual(41);
    expect(sent.length).toBeGreaterThanOrEqual(38);
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i].at);
    expect(new Set(gaps)).toEqual(new Set([250]));
    // Each report reads the list when it goes out: it is the newest there is then.
    for (const s of sent) expect(s.version).toBe(s.at);
    // The router asks for 2 s after each report (its budget is spent): the churn goes out every 2 s.
    const from = sent.length;
    for (let t = 0; t < 10_000; t++) {
      if (sent.length > from && t % 50 === 0) pacer.waitAtLeast(Math.max(0, sent.at(-1)!.at + 2_000 - (10_000 + t)));
      change();
      await step(1);
    }
    expect(sent.length - from).toBeLessThanOrEqual(7);
    // After the churn, the last change is still reported.
    await step(5_000);
    expect(sent.at(-1)?.version).toBe(20_000);
  });

  it('an ordinary page that changes now and then is reported 50 ms after each change', async () => {
    const { change, step, sent } = setup();
    for (let i = 0; i < 10; i++) {
      change();
      await step(3_000);
    }
    expect(sent.map((s) => s.at)).toEqual(Array.from({ length: 10 }, (_, i) => i * 3_000 + 50));
  });

  it('change signals that bring nothing new cost no report: the next real change is reported promptly', async () => {
    const { clock, advance } = manualClock();
    const sent: number[] = [];
    let news = false;
    const pacer = createReportPacer({
      clock,
      send: async () => {
        if (news) sent.push(clock.now());
        const had = news;
        news = false;
        return had;
      },
    });
    // A cursor or a re-render touching the page every 10 ms for 10 s, with nothing new in the tools.
    for (let t = 0; t < 10_000; t += 10) {
      pacer.changed();
      advance(10);
      await Promise.resolve();
      await Promise.resolve();
    }
    // Then a tool is registered, amid the same noise: it goes out within the minimum interval, not 2 s later.
    news = true;
    const registeredAt = clock.now();
    for (let t = 0; t < 400; t += 10) {
      pacer.changed();
      advance(10);
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(sent).toHaveLength(1);
    expect(sent[0] - registeredAt).toBeLessThanOrEqual(300);
  });

  it('the router asked for a wait: the next report goes no sooner, with the newest list, and then the pace is as before', async () => {
    const { change, step, sent, pacer } = setup();
    change();
    await step(50);
    expect(sent).toEqual([{ at: 50, version: 1 }]);
    pacer.waitAtLeast(3_000);
    change();
    change();
    await step(2_999);
    expect(sent).toHaveLength(1);
    await step(1);
    expect(sent).toEqual([
      { at: 50, version: 1 },
      { at: 3_050, version: 3 },
    ]);
    // A wait that is no number, or longer than the most the router asks, is not taken as given.
    pacer.waitAtLeast(Number.NaN);
    pacer.waitAtLeast(10 ** 12);
    change();
    await step(10_000);
    expect(sent).toHaveLength(3);
  });

  it('the frame’s own rest after a read is not held to the router’s 10 s (read-pause-ms.ts bounds it)', async () => {
    const { change, step, sent, pacer } = setup();
    change();
    await step(50);
    pacer.restAfterRead(45_000);
    change();
    await step(44_999);
    expect(sent).toHaveLength(1);
    await step(1);
    expect(sent).toEqual([
      { at: 50, version: 1 },
      { at: 45_050, version: 2 },
    ]);
    // No number, or no time: no rest.
    pacer.restAfterRead(Number.NaN);
    pacer.restAfterRead(-1);
    change();
    await step(250);
    expect(sent).toHaveLength(3);
  });

  it('while a report waits, the frame need not hear of changes: it is told so, and told again before the read', async () => {
    const { clock, advance } = manualClock();
    const heard: [number, boolean][] = [];
    const sent: number[] = [];
    const pacer = createReportPacer({
      clock,
      hear: (on) => heard.push([clock.now(), on]),
      send: async () => {
        sent.push(clock.now());
        return true;
      },
    });
    pacer.changed();
    expect(heard).toEqual([[0, false]]);
    advance(50);
    await Promise.resolve();
    expect(sent).toEqual([50]);
    expect(heard).toEqual([
      [0, false],
      [50, true],
    ]);
    // Held by the router: still not hearing until the report that waits is read.
    pacer.waitAtLeast(1_000);
    pacer.changed();
    advance(999);
    await Promise.resolve();
    expect(heard.map(([, on]) => on)).toEqual([false, true, false]);
    expect(sent).toHaveLength(1);
    advance(1);
    await Promise.resolve();
    expect(heard.map(([, on]) => on)).toEqual([false, true, false, true]);
    expect(sent).toEqual([50, 1_050]);
  });
});
