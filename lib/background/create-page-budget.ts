/**
 * How much work the router takes from a page (docs/security.md, "Limits on what a page can make the extension do";
 * the numbers are page-limits.ts's). Every count is kept per tab and, for reports, per site (the attested origin),
 * so sixteen frames, or sixteen tabs of one site, share one budget instead of getting one each. Each check is a
 * few arithmetic operations on a bucket and comes before anything the page sent is looked at: a refused message
 * costs nothing more, and a report is measured (bounded, json-size-up-to.ts), checked and stored only once the
 * counts admit it.
 *
 * A report that comes too soon is held, not lost: it is the frame's whole list, so the newest held replaces the one
 * before it (holding costs a reference), and it goes in once the buckets refill. The per-frame byte bucket of
 * issue 34 stays, inside the tab's and the site's.
 *
 * Each offer is answered with how long the frame should wait before its next report (the frame's bridge waits that
 * long, create-report-pacer.ts): what a report costs the service worker is mostly paid before any of this runs (the
 * browser has copied and parsed the message by then), so the cheap report is the one a frame does not send. The
 * wait counts the frames of the tab that hold a report ahead of it, so sixteen frames of a tab share the tab's pace
 * instead of each sending at its own. A frame that does not wait (a compromised renderer) is still held and refused
 * as before; it only spends its own tab's budget.
 */
import { PAGE_LIMITS, type PageLimits } from './page-limits';
import type { PageLimitKind } from '../messaging/tab-tool-snapshot';

/** Where the budget keeps time: the real clock and timers in the background, fake ones in tests. */
export interface BudgetClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface PageBudgetOptions {
  /** The limits (default PAGE_LIMITS); a test may set a few. */
  limits?: Partial<PageLimits>;
  clock?: BudgetClock;
}

/** Who sent something, as the browser attests it. */
interface BudgetSender {
  tabId: number;
  frameId: number;
  /** The attested origin: reports of one site share a budget. */
  origin: string;
}

/** A report offered to the budget: measured only once admitted, taken once its bytes fit. */
interface ReportOffer {
  /** The report's size in bytes, at most the limit plus one (else Infinity): called only once the counts admit it. */
  measure(): number;
  /** The report goes in. */
  take(): void;
}

export interface PageBudget {
  /** Any message of a frame: false when its tab's messages or frames are over their limits. */
  admitMessage(sender: BudgetSender): boolean;
  /**
   * The frames of the tab among `frameIds` (in that order) whose messages the router will take, before they sent
   * any: the top, those it takes already, and new ones while the tab's frame limit allows, counted from now. What
   * the bridge is loaded into unasked (a watched tab's frames), so none goes into a frame the router ignores.
   */
  admitFrames(tabId: number, frameIds: readonly number[]): number[];
  /**
   * A frame's report: taken now, held (the newest replaces one held), or refused as too large. Returns how long the
   * frame should wait before it reports again, in ms (0: whenever it likes).
   */
  offerReport(sender: BudgetSender, offer: ReportOffer): number;
  /** The frame's list came another way (with a call's result): a report held from before it is older, and goes. */
  dropHeld(sender: { tabId: number; frameId: number }): void;
  /** A top document asks for the bridge: false when the tab loads pages faster than its budget. */
  admitNavigation(tabId: number): boolean;
  /** A new top document: the tab's frames are counted afresh. */
  newTopDocument(tabId: number): void;
  /** The tab closed: its buckets and held reports go. */
  forgetTab(tabId: number): void;
}

/** Called once a while (not on every refusal) when a tab meets a limit, with the sender's attested origin. */
type LimitListener = (tabId: number, kind: PageLimitKind) => void;

const realClock: BudgetClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** A bucket that holds up to `burst` and refills at `rate` a second. */
interface Bucket {
  level: number;
  at: number;
  burst: number;
  rate: number;
}

interface TabBudget {
  reports: Bucket;
  bytes: Bucket;
  messages: Bucket;
  navigations: Bucket;
  frames: Set<number>;
  /** When each limit was last told of (LimitListener). */
  told: Map<PageLimitKind, number>;
}

interface FrameSlot {
  bytes: Bucket;
  held?: { offer: ReportOffer; sender: BudgetSender; bytes?: number; timer: unknown };
}

/** A limit is told again at most this often per tab (each telling saves the tab's state). */
const TELL_AGAIN_MS = 10_000;
/** The longest a frame is asked to wait before its next report: its tool list may lag that much behind the page. */
const MAX_REPORT_WAIT_MS = 10_000;

/** Creates the budget; `onLimit` hears when a tab meets a limit. */
export function createPageBudget(options: PageBudgetOptions = {}, onLimit: LimitListener = () => {}): PageBudget {
  const limits: PageLimits = { ...PAGE_LIMITS, ...options.limits };
  const clock = options.clock ?? realClock;
  const tabs = new Map<number, TabBudget>();
  const sites = new Map<string, { reports: Bucket; bytes: Bucket }>();
  const frames = new Map<string, FrameSlot>();

  const bucket = (burst: number, rate: number): Bucket => ({ level: burst, at: clock.now(), burst, rate });
  const refill = (b: Bucket) => {
    const now = clock.now();
    b.level = Math.min(b.burst, b.level + ((now - b.at) * b.rate) / 1000);
    b.at = now;
  };
  /** A cost larger than the bucket costs a full bucket: it waits for that, never forever. */
  const fits = (b: Bucket, cost: number) => {
    refill(b);
    return b.level >= Math.min(cost, b.burst);
  };
  const spend = (b: Bucket, cost: number) => {
    b.level -= Math.min(cost, b.burst);
  };
  const msUntil = (b: Bucket, cost: number) => Math.max(1, Math.ceil(((Math.min(cost, b.burst) - b.level) * 1000) / b.rate));

  const tabOf = (tabId: number): TabBudget => {
    let tab = tabs.get(tabId);
    if (!tab) {
      tab = {
        reports: bucket(limits.reportBurstPerTab, limits.reportsPerSecondPerTab),
        bytes: bucket(limits.tabBurstBytes, limits.tabBytesPerSecond),
        messages: bucket(limits.messageBurstPerTab, limits.messagesPerSecondPerTab),
        navigations: bucket(limits.navigationBurstPerTab, limits.navigationsPerSecondPerTab),
        frames: new Set(),
        told: new Map(),
      };
      tabs.set(tabId, tab);
    }
    return tab;
  };
  const siteOf = (origin: string) => {
    let site = sites.get(origin);
    if (!site) {
      prune(sites, (s) => s.reports.level >= s.reports.burst && s.bytes.level >= s.bytes.burst);
      site = {
        reports: bucket(limits.reportBurstPerSite, limits.reportsPerSecondPerSite),
        bytes: bucket(limits.siteBurstBytes, limits.siteBytesPerSecond),
      };
      sites.set(origin, site);
    }
    return site;
  };
  const slotOf = (sender: BudgetSender): FrameSlot => {
    const key = `${sender.tabId}:${sender.frameId}`;
    let slot = frames.get(key);
    if (!slot) {
      prune(frames, (s) => !s.held && s.bytes.level >= s.bytes.burst);
      slot = { bytes: bucket(limits.frameBurstBytes, limits.frameBytesPerSecond) };
      frames.set(key, slot);
    }
    return slot;
  };
  /** Buckets of frames and sites come and go: full ones that hold nothing are forgotten now and then. */
  const prune = <T extends { bytes: Bucket }>(map: Map<string, T>, idle: (value: T) => boolean) => {
    if (map.size < 1000) return;
    for (const [key, value] of map) {
      for (const b of Object.values(value)) if (isBucket(b)) refill(b);
      if (idle(value)) map.delete(key);
    }
  };
  const tell = (tabId: number, kind: PageLimitKind) => {
    const tab = tabOf(tabId);
    const last = tab.told.get(kind);
    if (last !== undefined && clock.now() - last < TELL_AGAIN_MS) return;
    tab.told.set(kind, clock.now());
    onLimit(tabId, kind);
  };

  /** The time until every bucket could take `cost` (0: now). */
  const msUntilAll = (buckets: Bucket[], cost: number) => Math.max(0, ...buckets.map((b) => (fits(b, cost) ? 0 : msUntil(b, cost))));
  /** Frames of the tab holding a report: each goes in before a report that comes now. */
  const holdingFrames = (tabId: number) => {
    let count = 0;
    for (const [key, slot] of frames) if (slot.held && key.startsWith(`${tabId}:`)) count++;
    return count;
  };
  /** How long the frame should wait before its next report, given how long its buckets need and who is ahead. */
  const waitHint = (sender: BudgetSender, ms: number) =>
    ms <= 0 ? 0 : Math.min(MAX_REPORT_WAIT_MS, Math.ceil(ms * (1 + holdingFrames(sender.tabId))));

  /**
   * Tries the report now: counts, then (once) its size, then bytes; else holds it until the buckets refill. Returns
   * the frame's wait before its next report (see offerReport).
   */
  const attempt = (slot: FrameSlot, sender: BudgetSender, offer: ReportOffer, measured?: number): number => {
    const tab = tabOf(sender.tabId);
    const site = siteOf(sender.origin);
    let bytes = measured;
    if (bytes === undefined) {
      if (!fits(tab.reports, 1) || !fits(site.reports, 1)) {
        tell(sender.tabId, 'reports');
        const ms = Math.max(msUntil(tab.reports, 1), msUntil(site.reports, 1));
        hold(slot, sender, offer, undefined, ms);
        return waitHint(sender, ms);
      }
      spend(tab.reports, 1);
      spend(site.reports, 1);
      bytes = offer.measure();
      if (!(bytes <= limits.maxReportBytes)) {
        tell(sender.tabId, 'report-size');
        return waitHint(sender, msUntilAll([slot.bytes, tab.bytes, site.bytes], limits.maxReportBytes));
      }
    }
    const buckets = [slot.bytes, tab.bytes, site.bytes];
    if (buckets.every((b) => fits(b, bytes))) {
      for (const b of buckets) spend(b, bytes);
      offer.take();
      // The same report again would wait this long: the frame may as well wait for it at home.
      return waitHint(sender, Math.max(msUntilAll(buckets, bytes), msUntilAll([tab.reports, site.reports], 1)));
    }
    tell(sender.tabId, 'report-bytes');
    const ms = Math.max(1, msUntilAll(buckets, bytes));
    hold(slot, sender, offer, bytes, ms);
    return waitHint(sender, ms);
  };
  const hold = (slot: FrameSlot, sender: BudgetSender, offer: ReportOffer, bytes: number | undefined, ms: number) => {
    const held = { offer, sender, bytes, timer: undefined as unknown };
    held.timer = clock.setTimeout(() => {
      if (slot.held !== held) return;
      slot.held = undefined;
      attempt(slot, sender, offer, bytes);
    }, ms);
    slot.held = held;
  };

  return {
    admitMessage(sender) {
      const tab = tabOf(sender.tabId);
      if (sender.frameId !== 0 && !tab.frames.has(sender.frameId)) {
        if (tab.frames.size >= limits.maxFramesPerTab) {
          tell(sender.tabId, 'frames');
          return false;
        }
        tab.frames.add(sender.frameId);
      }
      if (!fits(tab.messages, 1)) {
        tell(sender.tabId, 'messages');
        return false;
      }
      spend(tab.messages, 1);
      return true;
    },
    admitFrames(tabId, frameIds) {
      const tab = tabOf(tabId);
      const admitted = frameIds.filter((frameId) => {
        if (frameId === 0 || tab.frames.has(frameId)) return true;
        if (tab.frames.size >= limits.maxFramesPerTab) return false;
        tab.frames.add(frameId);
        return true;
      });
      if (admitted.length < frameIds.length) tell(tabId, 'frames');
      return admitted;
    },
    offerReport(sender, offer) {
      const slot = slotOf(sender);
      // A report that comes while another is held says all the held one said: the older goes.
      if (slot.held) {
        clock.clearTimeout(slot.held.timer);
        slot.held = undefined;
      }
      return attempt(slot, sender, offer);
    },
    dropHeld(sender) {
      const slot = frames.get(`${sender.tabId}:${sender.frameId}`);
      if (!slot?.held) return;
      clock.clearTimeout(slot.held.timer);
      slot.held = undefined;
    },
    admitNavigation(tabId) {
      const tab = tabOf(tabId);
      if (!fits(tab.navigations, 1)) {
        tell(tabId, 'navigations');
        return false;
      }
      spend(tab.navigations, 1);
      return true;
    },
    newTopDocument(tabId) {
      tabs.get(tabId)?.frames.clear();
    },
    forgetTab(tabId) {
      tabs.delete(tabId);
      const prefix = `${tabId}:`;
      for (const [key, slot] of frames) {
        if (!key.startsWith(prefix)) continue;
        if (slot.held) clock.clearTimeout(slot.held.timer);
        frames.delete(key);
      }
    },
  };
}

function isBucket(value: unknown): value is Bucket {
  return typeof value === 'object' && value !== null && 'level' in value && 'rate' in value;
}
