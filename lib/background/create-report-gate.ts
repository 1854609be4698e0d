/**
 * How fast the router takes in one frame's tool reports (docs/security.md, "Per-frame report budget"). A report is
 * the frame's whole list, and taking one costs the service worker in proportion to its size (the per-tab caps, the
 * stored state, the snapshot every panel and agent host is sent). A page decides how often its frames report (any
 * registration does), so a frame that reports faster than its budget has its reports held: one that comes while
 * another waits replaces it, since it says all the older one said. Each frame has a bucket of bytes that refills
 * at a steady rate; an ordinary page's reports (a few KB) always find it full, and a small report, such as the
 * empty one of a document going away, waits at most for what its own size needs.
 */

/** Where the gate keeps time: the real clock and timers in the background, fake ones in tests. */
export interface ReportGateClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface ReportGateOptions {
  /** How many bytes a frame's bucket holds: what a frame that was quiet may send at once. */
  burstBytes?: number;
  /** How many bytes a second refill a frame's bucket. */
  bytesPerSecond?: number;
  clock?: ReportGateClock;
}

interface ReportGate {
  /**
   * Takes a report of `bytes` from the frame `frameKey` now (`take` runs at once) or when the frame's bucket holds
   * enough; a later offer from the same frame replaces one that waits.
   */
  offer(frameKey: string, bytes: number, take: () => void): void;
  /** The frame's tab closed: what it left waiting is dropped. */
  forgetTab(tabId: number): void;
}

/** 512 KiB: twice the per-tab cap (cap-tab-tools.ts), so a frame's first full report always goes straight in. */
export const REPORT_BURST_BYTES = 512 * 1024;
/** 128 KiB a second per frame: a report at the tab cap every two seconds. */
export const REPORT_BYTES_PER_SECOND = 128 * 1024;

interface Bucket {
  level: number;
  at: number;
  waiting?: { bytes: number; take: () => void; timer: unknown };
}

const realClock: ReportGateClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Creates the gate; `frameKey` is `tabId:frameId`. */
export function createReportGate(options: ReportGateOptions = {}): ReportGate {
  const burst = options.burstBytes ?? REPORT_BURST_BYTES;
  const rate = options.bytesPerSecond ?? REPORT_BYTES_PER_SECOND;
  const clock = options.clock ?? realClock;
  const buckets = new Map<string, Bucket>();

  const refill = (bucket: Bucket) => {
    const now = clock.now();
    bucket.level = Math.min(burst, bucket.level + ((now - bucket.at) * rate) / 1000);
    bucket.at = now;
  };
  // A report larger than the bucket itself costs a full bucket: it waits for that, never forever.
  const costOf = (bytes: number) => Math.min(Math.max(0, bytes), burst);

  const takeWaiting = (frameKey: string, bucket: Bucket) => {
    const waiting = bucket.waiting;
    if (!waiting) return;
    refill(bucket);
    const cost = costOf(waiting.bytes);
    if (bucket.level < cost) {
      waiting.timer = clock.setTimeout(() => takeWaiting(frameKey, bucket), msUntil(bucket.level, cost, rate));
      return;
    }
    bucket.level -= cost;
    bucket.waiting = undefined;
    waiting.take();
  };

  // Frames come and go with their documents: the buckets that are full and hold nothing are forgotten now and then.
  const prune = () => {
    if (buckets.size < 1000) return;
    for (const [key, bucket] of buckets) {
      refill(bucket);
      if (!bucket.waiting && bucket.level >= burst) buckets.delete(key);
    }
  };

  return {
    offer(frameKey, bytes, take) {
      let bucket = buckets.get(frameKey);
      if (!bucket) {
        prune();
        bucket = { level: burst, at: clock.now() };
        buckets.set(frameKey, bucket);
      }
      refill(bucket);
      const cost = costOf(bytes);
      if (bucket.waiting) clock.clearTimeout(bucket.waiting.timer);
      if (bucket.level >= cost) {
        // This one says all a waiting one said: the older is dropped.
        bucket.waiting = undefined;
        bucket.level -= cost;
        take();
        return;
      }
      const owner = bucket;
      bucket.waiting = { bytes, take, timer: clock.setTimeout(() => takeWaiting(frameKey, owner), msUntil(bucket.level, cost, rate)) };
    },
    forgetTab(tabId) {
      const prefix = `${tabId}:`;
      for (const [key, bucket] of buckets) {
        if (!key.startsWith(prefix)) continue;
        if (bucket.waiting) clock.clearTimeout(bucket.waiting.timer);
        buckets.delete(key);
      }
    },
  };
}

function msUntil(level: number, cost: number, rate: number): number {
  return Math.max(1, Math.ceil(((cost - level) * 1000) / rate));
}
