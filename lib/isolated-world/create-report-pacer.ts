/**
 * When a frame reports its tools (docs/security.md, "Limits on what a page can make the extension do"). A page
 * decides how often its tools change (a registration, an unregistration), and each report is the frame's whole list:
 * so changes are coalesced, never queued. The first change of a quiet page is reported `firstDelayMs` after it (the
 * changes of one moment go together); while a report is waiting or being read, further changes only mark it stale,
 * and the list is read when it goes out, so it is always the newest. Reports of one frame are at least
 * `minIntervalMs` apart; while the page keeps changing (several changes between reports) the interval doubles up to
 * `maxIntervalMs`, and a report with a single change after a quiet interval brings it back.
 */

/** Where the pacer keeps time: real timers in the frame, fake ones in tests. */
interface PacerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

interface ReportPacerOptions {
  /** Reads the frame's list and sends it (when it changed). */
  send(): Promise<void>;
  /** The wait after the first change of a quiet page (default 50 ms). */
  firstDelayMs?: number;
  /** Reports at least this far apart (default 250 ms). */
  minIntervalMs?: number;
  /** ...and under sustained changes, up to this far (default 2 s). */
  maxIntervalMs?: number;
  clock?: PacerClock;
}

interface ReportPacer {
  /** The frame's tools or page changed. */
  changed(): void;
}

const realClock: PacerClock = { now: () => Date.now(), setTimeout: (run, ms) => setTimeout(run, ms) };

/** Creates the pacer. */
export function createReportPacer(options: ReportPacerOptions): ReportPacer {
  const clock = options.clock ?? realClock;
  const firstDelay = options.firstDelayMs ?? 50;
  const minInterval = options.minIntervalMs ?? 250;
  const maxInterval = options.maxIntervalMs ?? 2_000;
  let interval = minInterval;
  let nextAt = 0;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let waiting = false;
  let sending = false;
  /** Changes since the last report went out: more than one is a page that keeps changing. */
  let changes = 0;

  const schedule = () => {
    waiting = true;
    clock.setTimeout(() => void fire(), Math.max(firstDelay, nextAt - clock.now()));
  };
  const fire = async () => {
    waiting = false;
    sending = true;
    const coalesced = changes;
    changes = 0;
    // Counted from when the report was read: that is when it stopped taking changes in.
    const now = clock.now();
    try {
      await options.send();
    } catch {
      // A report that could not be read or sent: the next change tries again.
    }
    sending = false;
    // Churn: several changes in one report, or more while it was read. A lone change after a quiet spell: calm again.
    if (coalesced > 1 || changes > 0) interval = Math.min(interval * 2, maxInterval);
    else if (now - lastSentAt > interval * 2) interval = minInterval;
    lastSentAt = now;
    nextAt = now + interval;
    if (changes > 0) schedule();
  };

  return {
    changed() {
      changes++;
      if (!waiting && !sending) schedule();
    },
  };
}
