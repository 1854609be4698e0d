/**
 * The frames of a tab that ask for their bridge (frame/load) as they load, loaded together where they overlap: the
 * first frame of a quiet tab is loaded at once, and the frames that ask while its load runs are loaded in one go when
 * it ends (load-connector.ts: one injection of each script for all of them). A page of a hundred frames asked for 65
 * loads of four injections each (issue 45); every injection is an extension API call on the browser's main thread,
 * which every extension message of the other tabs waits for.
 */
import type { BridgeFrame } from './load-connector';

/** The queue, as the router's frame/load handler uses it. */
export interface BridgeLoadQueue {
  /** The frame asked for its bridge: loaded now, or with the others that ask while a load of the tab runs. */
  request(tabId: number, frame: BridgeFrame): void;
  /** The tab closed: the frames still waiting are not loaded. */
  forgetTab(tabId: number): void;
}

/** Creates the queue over the router's loader (`loadConnector`). */
export function createBridgeLoadQueue(load: (tabId: number, frames: readonly BridgeFrame[]) => Promise<void>): BridgeLoadQueue {
  /** Per tab with a load running: the frames that asked since it started. */
  const waiting = new Map<number, BridgeFrame[]>();
  const run = (tabId: number, frames: readonly BridgeFrame[]) => {
    void load(tabId, frames)
      .catch(() => undefined)
      .then(() => {
        const next = waiting.get(tabId);
        if (next?.length) {
          waiting.set(tabId, []);
          run(tabId, next);
        } else {
          waiting.delete(tabId);
        }
      });
  };
  return {
    request(tabId, frame) {
      const queued = waiting.get(tabId);
      const asked: BridgeFrame = frame.documentId ? { frameId: frame.frameId, documentId: frame.documentId } : { frameId: frame.frameId };
      if (!queued) {
        waiting.set(tabId, []);
        run(tabId, [asked]);
        return;
      }
      // A frame asks once per document; where it asks again (a compromised renderer), its document is loaded once.
      if (!queued.some((f) => f.frameId === asked.frameId && f.documentId === asked.documentId)) queued.push(asked);
    },
    forgetTab(tabId) {
      const queued = waiting.get(tabId);
      if (queued) queued.length = 0;
    },
  };
}
