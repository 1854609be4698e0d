import type { BudgetClock } from '../background/create-page-budget';

/** Test double: a clock whose time moves only when the test says (`advance` runs the timers that come due). */
export function manualClock() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let next = 0;
  const clock: BudgetClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = ++next;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.run();
    }
    now = end;
  };
  return { clock, advance, pending: () => timers.length };
}
