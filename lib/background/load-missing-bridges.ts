/**
 * The bridge for a tab's frames that lack it, loaded unasked: when the tab comes to be watched, when it finished
 * loading while watched, and before a delegation check (a parent with no tools of its own must post its tokens).
 * Only frames whose messages the router will take get it (the tab's frame limit, create-page-budget.ts): a page of a
 * hundred frames would otherwise get it in every frame, and on native WebMCP each of those frames reads all the tab's
 * tools for a report the router then refuses (issue 45). One small probe finds the frames and whether the bridge runs
 * there; the frames without it are loaded together (load-connector.ts). A frame's initial about:blank that its
 * document is about to replace is left alone: named by its document id, it would fail the injection for all.
 */
import type { BridgeFrame, FoundFrame } from './load-connector';

interface MissingBridgePorts {
  /** Every frame of the tab the extension reaches, and whether the bridge runs there (one probe). */
  findFrames?(tabId: number): Promise<readonly FoundFrame[]>;
  /** Loads the bridge into these frames, or every frame of the tab without `frames`. */
  loadConnector?(tabId: number, frames?: readonly BridgeFrame[]): Promise<void>;
  /** The frames among these (in order) whose messages the router will take (PageBudget.admitFrames). */
  admitFrames(tabId: number, frameIds: readonly number[]): number[];
}

/**
 * Returns the loader: it resolves with the frames the probe found (every one, with or without the bridge). Without a
 * probe (the router's own tests), it loads into every frame and finds none.
 */
export function createMissingBridgeLoader(ports: MissingBridgePorts): (tabId: number) => Promise<readonly FoundFrame[]> {
  return async (tabId) => {
    if (!ports.findFrames) {
      await ports.loadConnector?.(tabId);
      return [];
    }
    const frames = [...(await ports.findFrames(tabId))].sort((a, b) => a.frameId - b.frameId);
    const admitted = new Set(
      ports.admitFrames(
        tabId,
        frames.map((frame) => frame.frameId),
      ),
    );
    const missing: BridgeFrame[] = frames
      .filter((frame) => !frame.hasConnector && !frame.pending && admitted.has(frame.frameId))
      .map(({ frameId, documentId }) => (documentId ? { frameId, documentId } : { frameId }));
    if (missing.length > 0) await ports.loadConnector?.(tabId, missing);
    return frames;
  };
}
