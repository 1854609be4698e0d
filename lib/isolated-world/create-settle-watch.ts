/**
 * The evidence a frame's tool host waits on after a call resolved (create-frame-tool-host.ts): tool changes, route
 * changes and page mutations, stamped as they happen, and the wait they end. No clock ends the wait early or late
 * except the cap: see waitForSettle.
 */
import type { FrameReport } from '../messaging/router-messages';
import type { ToolCursor } from './create-tool-cursor';
import type { PageChannel } from '../webmcp/page-channel';

/** A hidden tab runs no animation frames and may idle late: one frame or idle tick waits at most this long. */
const FRAME_BOUND_MS = 50;
interface SettleWatchOptions {
  win: Window & typeof globalThis;
  doc: Document;
  /** Its own overlay's mutations are not the page's. */
  cursor: ToolCursor;
  page?: PageChannel;
  /** The longest the wait after a call lasts, counted from when it resolved. */
  capMs: number;
  /** The frame's tools now. */
  list: () => Promise<FrameReport>;
  /** Whether the document is going away (pagehide ends every wait). */
  isUnloading: () => boolean;
}

export interface SettleWatch {
  /** The frame's tool list changed. */
  toolsChanged(): void;
  /** When the tools or the route last changed (Date.now() time; 0 for never): a list read later is current. */
  lastChangeAt(): number;
  /** Wakes every wait (pagehide). */
  stir(): void;
  /** Stamps every page mutation until the returned function is called. */
  observeMutations(): () => void;
  /**
   * Waits, after a call resolved, for the changes it plausibly started (see below). Resolves true when something
   * changed (the tools, the route, the page), false when the call changed nothing.
   */
  waitForSettle(since: number, before: { url: string; names: Set<string> }): Promise<boolean>;
}

/** Creates the watch and starts following route changes. */
export function createSettleWatch(options: SettleWatchOptions): SettleWatch {
  const { win, doc, cursor, page, list } = options;
  const settle = { capMs: options.capMs };
  const isUnloading = options.isUnloading;
  let lastChangeAt = 0;
  // Evidence that the page is still changing, stamped by the listeners below and read by waitForSettle.
  let lastRouteAt = 0;
  let lastMutationAt = 0;
  const activityWaiters = new Set<() => void>();
  const stir = () => {
    for (const wake of [...activityWaiters]) wake();
  };
  // A route change that started: the Navigation API sees same-document navigations (History API calls included)
  // from any world; popstate and hashchange cover browsers without it, and waitForSettle also compares the URL.
  const routed = () => {
    lastRouteAt = Date.now();
    stir();
  };
  (win as { navigation?: EventTarget }).navigation?.addEventListener('navigate', routed);
  win.addEventListener('popstate', routed);
  win.addEventListener('hashchange', routed);

  /** Resolves at the next sign of activity (a tool change, a route change, a mutation, pagehide) or after ms. */
  const nextActivity = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        activityWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      activityWaiters.add(wake);
    });

  /** The page's next animation frame, then its next idle period: a framework commits and runs its effects there. */
  const frameAndIdle = async () => {
    // A hidden tab runs no animation frames: bounded so the call does not hang on it.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FRAME_BOUND_MS);
      win.requestAnimationFrame?.(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await new Promise<void>((resolve) => {
      if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(() => resolve(), { timeout: FRAME_BOUND_MS });
      else setTimeout(resolve, 0);
    });
  };

  /**
   * After a call resolved, waits for the tool changes it plausibly started, ended by evidence rather than a clock:
   * - nothing happened during the call (no mutation, no tool change, no route change): one macrotask and one
   *   channel round trip, so tools registered in the call's own microtasks or a zero-delay timer are seen, and the
   *   call returns at once;
   * - while the DOM or the tool list keeps changing: one more animation frame and idle period each time, until one
   *   passes quietly (a framework commits the new view and runs its cleanups there);
   * - the route changed (URL, navigate, popstate, hashchange) and took tools away without bringing new ones: the
   *   new route's tools are coming, typically from an effect after its render, so wait until they arrive (a name
   *   the list did not have before the call, or a list that grows again), then settle as above. A route change
   *   that leaves the tools as they were (an app whose tools do not belong to routes) does not wait for tools.
   * Everything is bounded by settle.capMs from the moment the call resolved, and pagehide ends it.
   */
  const waitForSettle = async (since: number, before: { url: string; names: Set<string> }) => {
    const deadline = Date.now() + settle.capMs;
    // One macrotask, then one trip through the page channel: a change the page queued while or just after the call
    // (the polyfill announces registrations in a zero-delay timer) reaches us before the pong does.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await page?.request('ping').catch(() => undefined);
    if (Math.max(lastChangeAt, lastRouteAt, lastMutationAt) < since && win.location.href === before.url) return false;
    const quiet = async () => {
      while (!isUnloading() && Date.now() < deadline) {
        const mark = Date.now();
        await frameAndIdle();
        if (Math.max(lastChangeAt, lastMutationAt) < mark) return;
      }
    };
    await quiet();
    if (lastRouteAt < since && win.location.href === before.url) return true;
    let smallest = Number.POSITIVE_INFINITY;
    let listedFor = -1;
    while (!isUnloading() && Date.now() < deadline) {
      if (lastChangeAt !== listedFor) {
        listedFor = lastChangeAt;
        const names = (await list().catch(() => undefined))?.tools.map((tool) => tool.name) ?? [];
        if (names.some((name) => !before.names.has(name)) || names.length > smallest) break;
        if ([...before.names].every((name) => names.includes(name))) return true;
        smallest = Math.min(smallest, names.length);
      }
      await nextActivity(deadline - Date.now());
    }
    await quiet();
    return true;
  };

  /** Stamps lastMutationAt for every page mutation (the cursor's own excepted) from the call's start until it settled. */
  const observeActivity = () => {
    const observer = new win.MutationObserver((records: MutationRecord[]) => {
      for (const record of records) {
        const target = record.target.nodeType === 1 ? (record.target as Element) : record.target.parentElement;
        if (!target || target === cursor.host || target.tagName === 'WEBMCP-AGENT-CURSOR') continue;
        if (
          record.type === 'childList' &&
          (target === doc.body || target === doc.documentElement) &&
          [...record.addedNodes, ...record.removedNodes].every((n) => n === cursor.host || (n as Element).tagName === 'WEBMCP-AGENT-CURSOR')
        ) {
          continue;
        }
        lastMutationAt = Date.now();
        stir();
        return;
      }
    });
    observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
    return () => observer.disconnect();
  };

  return {
    toolsChanged() {
      lastChangeAt = Date.now();
      stir();
    },
    lastChangeAt: () => Math.max(lastChangeAt, lastRouteAt),
    stir,
    observeMutations: observeActivity,
    waitForSettle,
  };
}
