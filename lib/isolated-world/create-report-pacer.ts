/**
 * When a frame reports its tools (docs/security.md, "Limits on what a page can make the extension do"). A page
 * decides how often its tools change (a registration, an unregistration), and each report is the frame's whole list:
 * so changes are coalesced, never queued. The first change of a quiet page is reported `firstDelayMs` after it (the
 * changes of one moment go together); while a report is waiting or being read, further changes only mark it stale,
 * and the list is read when it goes out, so it is always the newest. Reports of one frame are at least
 * `minIntervalMs` apart. Beyond that the frame waits as the router asks (`waitAtLeast`, its answer to each report,
 * lib/background/create-page-budget.ts): the router knows what the tab, its other frames and its site have sent, so
 * a page that keeps changing is slowed by what its reports cost, and a page that registers a small tool now and then
 * is reported within the minimum interval. (The frame's own doubling of the interval under churn, issue 45's first
 * version, made a page that registered a tool every few hundred milliseconds wait up to 2 s to have it listed.)
 */

/** Where the pacer keeps time: real timers in the frame, fake ones in tests. */
interface PacerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

interface ReportPacerOptions {
  /** Reads the frame's list and sends it when it changed; resolves true when it did (false: nothing new). */
  send(): Promise<boolean>;
  /** The wait after the first change of a quiet page (default 50 ms). */
  firstDelayMs?: number;
  /** Reports at least this far apart (default 250 ms). */
  minIntervalMs?: number;
  clock?: PacerClock;
  /**
   * Told false when a report is scheduled and true when it is about to be read: until then the frame need not hear
   * of further changes, since the read will see them (a page that changes thousands of times a second while its
   * report waits costs the frame nothing per change).
   */
  hear?(on: boolean): void;
}

interface ReportPacer {
  /** The frame's tools or page changed. */
  changed(): void;
  /** The router asks for no report sooner than `ms` from now (taken up to 10 s). */
  waitAtLeast(ms: number): void;
  /**
   * The frame's own pause after reading its tools (read-pause-ms.ts, which bounds it): no report reads again sooner
   * than `ms` from now. Not held to the router's 10 s: the pause is what the read cost, and a flood's reads cost more.
   */
  restAfterRead(ms: number): void;
}

/** The longest wait the frame takes from the router's answer (the router asks for at most 10 s). */
const MAX_WAIT_MS = 10_000;

const realClock: PacerClock = { now: () => Date.now(), setTimeout: (run, ms) => setTimeout(run, ms) };

/** Creates the pacer. */
export function createReportPacer(options: ReportPacerOptions): ReportPacer {
  const clock = options.clock ?? realClock;
  const firstDelay = options.firstDelayMs ?? 50;
  const minInterval = options.minIntervalMs ?? 250;
  let nextAt = 0;
  let waiting = false;
  let sending = false;
  /** Changes since the last report was read. */
  let changes = 0;
  /** No report before this, as the router asked. */
  let heldUntil = 0;

  const schedule = () => {
    waiting = true;
    options.hear?.(false);
    const wait = Math.max(nextAt, heldUntil) - clock.now();
    clock.setTimeout(() => void fire(), Math.max(firstDelay, wait));
  };
  const fire = async () => {
    waiting = false;
    // The router asked for a wait after this report was scheduled.
    if (clock.now() < heldUntil) {
      schedule();
      return;
    }
    sending = true;
    // Heard again before the read: a change during it makes this report stale, and schedules the next.
    options.hear?.(true);
    changes = 0;
    // Counted from when the report was read: that is when it stopped taking changes in.
    const now = clock.now();
    try {
      await options.send();
    } catch {
      // A report that could not be read or sent: the next change tries again.
    }
    sending = false;
    nextAt = now + minInterval;
    if (changes > 0) schedule();
  };

  return {
    changed() {
      changes++;
      if (!waiting && !sending) schedule();
    },
    waitAtLeast(ms) {
      if (Number.isFinite(ms) && ms > 0) heldUntil = Math.max(heldUntil, clock.now() + Math.min(ms, MAX_WAIT_MS));
    },
    restAfterRead(ms) {
      if (Number.isFinite(ms) && ms > 0) heldUntil = Math.max(heldUntil, clock.now() + ms);
    },
  };
}
