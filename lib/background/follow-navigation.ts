/**
 * Following a call that navigated its frame (lib/background/create-tool-router.ts): which document each frame is
 * on (a generation per frame/ready), each frame's latest report, and the waits on them. A call that navigated
 * returns with the next document's first report; a frame that stopped answering counts as navigated only with
 * evidence (its pagehide notice, or its next document), never after a fixed sleep.
 */
import type { ToolOutput } from '../agent/types';
import type { FrameReport } from '../messaging/router-messages';
import { capToolOutput } from '../agent/cap-tool-output';
import { toolErrorOutput } from '../agent/tool-error-output';

interface NavigationFollowerOptions {
  /** How long a navigated call waits for the next document to report. */
  navigationTimeoutMs: number;
  /** How long a frame that stopped answering may take to show it navigated (default 1 s). */
  goneEvidenceMs?: number;
  maxResultChars: number;
}

/** What the router tells the follower, and asks it. */
export interface NavigationFollower {
  /** A new document announced itself in this frame (frame/ready). */
  documentStarted(frameKey: string): void;
  /** The frame's current generation (how many documents it has announced). */
  generation(frameKey: string): number;
  /** The frame reported (after the router stored it). */
  reported(tabId: number, frameId: number, report: FrameReport): void;
  /** The frame says the document running this call is going away (frame/navigating). */
  callNavigating(callId: string, frameKey: string): void;
  /** Forgets a call that ended. */
  endCall(callId: string): void;
  /** Whether the frame of a call that stopped answering navigated (see navigatedAway). */
  navigatedAway(tabId: number, frameId: number, callId: string, generation: number): Promise<boolean>;
  /** The first report of a document after generation `after`, or undefined after navigationTimeoutMs. */
  waitForReport(tabId: number, frameId: number, after: number): Promise<FrameReport | undefined>;
  /** A navigated call's output: where it went, and what the new document says of itself. */
  navigatedOutput(report: FrameReport | undefined, name: string): ToolOutput;
  forgetTab(tabId: number): void;
}

/** Creates the follower. */
export function createNavigationFollower(options: NavigationFollowerOptions): NavigationFollower {
  const { navigationTimeoutMs, maxResultChars } = options;
  const generations = new Map<string, number>();
  const latestReports = new Map<string, { generation: number; report: FrameReport }>();
  const reportWaiters = new Set<{ tabId: number; frameId: number; after: number; resolve: (r: FrameReport) => void }>();
  const navigating = new Set<string>();
  /** Calls waiting to learn whether their frame navigated: woken by that frame's frame/ready and pagehide notices. */
  const frameEventWaiters = new Set<{ frameKey: string; wake: () => void }>();
  const frameEvent = (frameKey: string) => {
    for (const waiter of [...frameEventWaiters]) if (waiter.frameKey === frameKey) waiter.wake();
  };

  /**
   * The next document's first report. It comes once that document is parsed and idle (frame-connector.ts), so the tools
   * its scripts register while loading are in it; tools that come later reach the host as pushed changes.
   */
  const waitForReport = async (tabId: number, frameId: number, after: number): Promise<FrameReport | undefined> => {
    const latest = latestReports.get(`${tabId}:${frameId}`);
    return latest && latest.generation > after ? latest.report : nextReport(tabId, frameId, after, navigationTimeoutMs);
  };

  /**
   * Whether a frame that stopped answering during a call navigated: it said so (pagehide), its next document
   * announced itself, or one of them comes within goneEvidenceMs.
   */
  const navigatedAway = async (tabId: number, frameId: number, callId: string, generation: number): Promise<boolean> => {
    const frameKey = `${tabId}:${frameId}`;
    const seen = () => navigating.has(callId) || (generations.get(frameKey) ?? 0) > generation;
    if (seen()) return true;
    await new Promise<void>((resolve) => {
      const waiter = {
        frameKey,
        wake: () => {
          if (!seen()) return;
          done();
        },
      };
      const done = () => {
        clearTimeout(timer);
        frameEventWaiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(done, options.goneEvidenceMs ?? 1_000);
      frameEventWaiters.add(waiter);
    });
    return seen();
  };

  const nextReport = (tabId: number, frameId: number, after: number, timeoutMs: number): Promise<FrameReport | undefined> =>
    new Promise((resolve) => {
      const waiter = {
        tabId,
        frameId,
        after,
        resolve: (report: FrameReport) => {
          clearTimeout(timer);
          reportWaiters.delete(waiter);
          resolve(report);
        },
      };
      const timer = setTimeout(() => {
        reportWaiters.delete(waiter);
        resolve(undefined);
      }, timeoutMs);
      reportWaiters.add(waiter);
    });

  const navigatedOutput = (report: FrameReport | undefined, name: string): ToolOutput => {
    if (!report) {
      return toolErrorOutput(
        'navigated',
        `"${name}" navigated the page and the new page did not report within ${navigationTimeoutMs / 1000} s.`,
      );
    }
    const { url, title, h1, jsonLd } = report.page;
    let text = `"${name}" navigated the page to ${url}${title ? ` (“${title}”)` : ''}.`;
    if (h1) text += ` Its heading: “${h1}”.`;
    if (jsonLd) text += `\nStructured data on the new page (JSON-LD): ${JSON.stringify(jsonLd)}`;
    text += `\nIts tools: ${report.tools.map((t) => t.name).join(', ') || 'none'}.`;
    return capToolOutput(
      {
        content: [{ type: 'text', text: text.slice(0, maxResultChars) }],
        structuredContent: { navigatedTo: url, title, ...(h1 ? { h1 } : {}), ...(jsonLd ? { jsonLd } : {}) },
      },
      maxResultChars,
    );
  };

  return {
    documentStarted(frameKey) {
      generations.set(frameKey, (generations.get(frameKey) ?? 0) + 1);
      frameEvent(frameKey);
    },
    generation: (frameKey) => generations.get(frameKey) ?? 0,
    reported(tabId, frameId, report) {
      const frameKey = `${tabId}:${frameId}`;
      const generation = generations.get(frameKey) ?? 0;
      latestReports.set(frameKey, { generation, report });
      for (const waiter of reportWaiters) {
        if (waiter.tabId === tabId && waiter.frameId === frameId && generation > waiter.after) waiter.resolve(report);
      }
    },
    callNavigating(callId, frameKey) {
      navigating.add(callId);
      frameEvent(frameKey);
    },
    endCall: (callId) => void navigating.delete(callId),
    navigatedAway,
    waitForReport,
    navigatedOutput,
    forgetTab(tabId) {
      for (const frameKey of [...latestReports.keys()]) if (frameKey.startsWith(`${tabId}:`)) latestReports.delete(frameKey);
      for (const frameKey of [...generations.keys()]) if (frameKey.startsWith(`${tabId}:`)) generations.delete(frameKey);
    },
  };
}
