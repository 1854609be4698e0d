/**
 * What a page, its frames and its tools may make the extension do, with the numbers (docs/security.md, "Limits on
 * what a page can make the extension do"). A page decides how often its frames report, how many frames it has, how
 * often it navigates, how much its tools weigh and return and how many calls wait on them: each costs the service
 * worker, the agent host and the panel work, so each is bounded per tab and per site, and counted before anything of
 * the page's is parsed or copied (create-page-budget.ts). An ordinary page stays far below every one of them.
 */
import type { PageLimitKind, PageLimitNotice } from '../messaging/tab-tool-snapshot';

/** The numbers: each is documented, with why, in docs/security.md. */
export interface PageLimits {
  /** Reports a tab's frames may send a second, all frames together, and how many a quiet tab may send at once. */
  reportsPerSecondPerTab: number;
  reportBurstPerTab: number;
  /** The same for every tab of one site (origin) together: sixteen frames or tabs share one budget. */
  reportsPerSecondPerSite: number;
  reportBurstPerSite: number;
  /** Bytes of reports a second, and at once, per frame, per tab and per site. */
  frameBytesPerSecond: number;
  frameBurstBytes: number;
  tabBytesPerSecond: number;
  tabBurstBytes: number;
  siteBytesPerSecond: number;
  siteBurstBytes: number;
  /** A report heavier than this is refused whole (the frame's own bridge never sends one). */
  maxReportBytes: number;
  /** Tools in one report (the frame's own bridge sends at most 256). */
  maxToolsPerReport: number;
  /** Messages of any kind a tab's frames may send a second, and at once. */
  messagesPerSecondPerTab: number;
  messageBurstPerTab: number;
  /** Frames of one tab the extension hears from (the top always counts). */
  maxFramesPerTab: number;
  /** Top-level page loads a tab may ask the bridge for, a second, and at once. */
  navigationsPerSecondPerTab: number;
  navigationBurstPerTab: number;
}

export const PAGE_LIMITS: PageLimits = {
  reportsPerSecondPerTab: 5,
  reportBurstPerTab: 20,
  reportsPerSecondPerSite: 10,
  reportBurstPerSite: 40,
  frameBytesPerSecond: 128 * 1024,
  frameBurstBytes: 512 * 1024,
  tabBytesPerSecond: 256 * 1024,
  tabBurstBytes: 1024 * 1024,
  siteBytesPerSecond: 512 * 1024,
  siteBurstBytes: 2 * 1024 * 1024,
  maxReportBytes: 1024 * 1024,
  maxToolsPerReport: 256,
  messagesPerSecondPerTab: 100,
  messageBurstPerTab: 400,
  maxFramesPerTab: 64,
  navigationsPerSecondPerTab: 1,
  navigationBurstPerTab: 30,
};

/** Calls waiting or running in one tab at most; one more is refused at once. */
export const MAX_PENDING_CALLS_PER_TAB = 16;

/**
 * Model-facing names of tools that went away which one tab keeps, besides the names of the tools it lists now: past
 * it the oldest are forgotten, so a page registering and unregistering thousands of distinct names cannot grow the
 * tab's stored state without bound (tab-state.ts, nameTools).
 */
export const MAX_GONE_TOOL_NAMES_PER_TAB = 1_000;

/**
 * The bytes of one frame's exposed tools (frame/exposed, the polyfill's cross-origin exposure), measured only up to
 * this before anything of it is read; past it the frame's exposure is refused whole (it then exposes nothing).
 */
export const MAX_EXPOSED_BYTES = 1024 * 1024;

/** How the notice names the page: its title (the page's words, so quoted and cut) or else its host. */
export function pageLabel(title: unknown, origin: string | undefined): string {
  const host = hostOf(origin);
  const text = typeof title === 'string' ? title.replace(/\s+/g, ' ').trim() : '';
  if (!text) return host ? `The page on ${host}` : 'This page';
  const cut = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return host ? `“${cut}” (${host})` : `“${cut}”`;
}

/** The extension's words for a limit the page met: what was refused and why. */
export function pageLimitNotice(kind: PageLimitKind, label: string, limits: PageLimits = PAGE_LIMITS): PageLimitNotice {
  return { kind, note: noteFor(kind, label, limits) };
}

function noteFor(kind: PageLimitKind, label: string, limits: PageLimits): string {
  switch (kind) {
    case 'reports':
      return `${label} re-reported its tools more often than the extension takes them in: its tool list is updated here at most ${limits.reportsPerSecondPerTab} times a second (${limits.reportsPerSecondPerSite} for all tabs of one site), so it may lag behind the page.`;
    case 'report-bytes':
      return `${label} sent more tool descriptions than the extension takes in: at most ${kib(limits.tabBytesPerSecond)} a second from one tab, so its tool list here may lag behind the page.`;
    case 'report-size':
      return `${label} sent a tool list of more than ${kib(limits.maxReportBytes)} or more than ${limits.maxToolsPerReport} tools from one frame; the extension refused that list whole.`;
    case 'frames':
      return `${label} has more than ${limits.maxFramesPerTab} frames; the extension takes tools and messages from ${limits.maxFramesPerTab} frames of one tab and ignored the others.`;
    case 'messages':
      return `${label} sent the extension more than ${limits.messagesPerSecondPerTab} messages a second; the extension ignored the ones over that.`;
    case 'navigations':
      return `${label} loaded new pages more than ${limits.navigationBurstPerTab} times in a row without a pause; the extension loads its bridge into a new page of this tab at most ${limits.navigationsPerSecondPerTab === 1 ? 'once a second' : `${limits.navigationsPerSecondPerTab} times a second`}, so tools of the pages in between may be missed.`;
  }
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function hostOf(origin: string | undefined): string {
  if (!origin) return '';
  try {
    return new URL(origin).host.slice(0, 80);
  } catch {
    return '';
  }
}
