/**
 * The router's own limits on one frame's report, whatever the frame's bridge did (a content script may be
 * compromised): its size, counted only up to the limit, and each tool's weight (MAX_TOOL_BYTES).
 */
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import type { FrameReport } from '../messaging/router-messages';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import { toolBytes } from './cap-tab-tools';
import { PAGE_LIMITS } from './page-limits';
import type { StoredFrame } from './tab-state';

/**
 * A claimed report's size as the budget counts it: its JSON's length up to `limit`, Infinity past it or with more
 * tools than a frame reports (then nothing else of it is walked). Something that is no report at all weighs
 * little: it is refused once its turn comes (isFrameReport).
 */
export function reportSize(claimed: unknown, limit: number): number {
  if (typeof claimed !== 'object' || claimed === null) return 0;
  const tools = (claimed as { tools?: unknown }).tools;
  if (Array.isArray(tools) && tools.length > PAGE_LIMITS.maxToolsPerReport) return Number.POSITIVE_INFINITY;
  return jsonSizeUpTo(claimed, limit);
}

/**
 * The report without tools heavier than one tool may be, and how many the frame and the router left out in all
 * (`oversized`, counted among the dropped: the frame's own claim is a count, clamped).
 */
export function dropOversizedTools(report: StoredFrame, claimed: FrameReport): StoredFrame {
  const kept = report.tools.filter((tool) => toolBytes(tool) <= MAX_TOOL_BYTES);
  const byFrame = claimed.oversized;
  const fromFrame = typeof byFrame === 'number' && Number.isInteger(byFrame) ? Math.min(Math.max(byFrame, 0), 10_000) : 0;
  const oversized = fromFrame + report.tools.length - kept.length;
  if (oversized === 0) return report;
  return { ...report, tools: kept, oversized };
}
