/**
 * The checks a frame's report goes through before the router keeps it (lib/background/create-tool-router.ts): its
 * shape, the browser's attestation in place of the frame's claims, and the per-tab caps.
 */
import type { FrameReport } from '../messaging/router-messages';
import type { FrameSender } from './attest-frame-sender';
import { capTabTools } from './cap-tab-tools';
import type { StoredFrame } from './tab-state';

/** A frame never holds more than a whole tab may offer: it bounds what a flood of reports stores and writes. */
export function trimToTabCaps(report: StoredFrame): StoredFrame {
  const { kept } = capTabTools([{ frameId: 0, tools: report.tools }]);
  const keep = kept.get(0)!;
  if (keep.size === report.tools.length) return report;
  return { ...report, tools: report.tools.filter((_, i) => keep.has(i)), cut: report.tools.length - keep.size };
}

/**
 * The report as the router keeps it: the frame's claimed URL and origin are replaced by the browser's attestation
 * (its `sender`), so grants and prompts judge the real origin, and the document it came from is remembered.
 */
export function attest(report: FrameReport, sender: FrameSender): StoredFrame {
  // Field by field: a claimed report may carry `documentId` or `cut` of its own making.
  return {
    url: sender.url,
    origin: sender.origin,
    page: { ...report.page, url: sender.url },
    tools: report.tools,
    ...(sender.documentId ? { documentId: sender.documentId } : {}),
  };
}

/** A content script's report is untrusted: check its shape before storing it. */
export function isFrameReport(value: unknown): value is FrameReport {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as FrameReport;
  return (
    typeof r.url === 'string' &&
    typeof r.origin === 'string' &&
    typeof r.page === 'object' &&
    r.page !== null &&
    Array.isArray(r.tools) &&
    r.tools.every((t) => typeof t === 'object' && t !== null && typeof t.name === 'string' && typeof t.description === 'string')
  );
}
