import { describe, expect, it } from 'vitest';
import type { BridgeFrame, FoundFrame } from './load-connector';
import { createMissingBridgeLoader } from './load-missing-bridges';

/** A tab of frames 0..n-1, of which `bridged` have the bridge; and the loads it got. */
function tab({ frames, bridged = [] }: { frames: number; bridged?: number[] }) {
  const found: FoundFrame[] = Array.from({ length: frames }, (_, frameId) => ({
    frameId,
    documentId: `doc-${frameId}`,
    hasConnector: bridged.includes(frameId),
  }));
  const loads: (number[] | 'all')[] = [];
  const loadConnector = async (_tabId: number, targets?: readonly BridgeFrame[]) => {
    loads.push(targets ? targets.map((t) => t.frameId) : 'all');
  };
  // Found in no particular order, as the browser may answer.
  const findFrames = async () => [...found].reverse();
  return { loads, loadConnector, findFrames };
}

/** The router's limit on frames heard: the top and the first `cap` others asked about. */
const capAt = (cap: number) => (_tabId: number, frameIds: readonly number[]) => frameIds.filter((id) => id === 0 || id <= cap);

describe('createMissingBridgeLoader', () => {
  it('loads the frames without the bridge that the router hears, in one injection, and none past the frame limit', async () => {
    const page = tab({ frames: 101, bridged: [0, 1, 2] });
    const load = createMissingBridgeLoader({ ...page, admitFrames: capAt(64) });
    const found = await load(1);
    expect(found).toHaveLength(101);
    expect(page.loads).toEqual([Array.from({ length: 62 }, (_, i) => i + 3)]);
  });

  it("leaves a frame's initial about:blank alone while its document loads (that document gets its own scripts)", async () => {
    const page = tab({ frames: 3 });
    const findFrames = async () => (await page.findFrames()).map((frame) => (frame.frameId === 1 ? { ...frame, pending: true } : frame));
    await createMissingBridgeLoader({ ...page, findFrames, admitFrames: capAt(64) })(1);
    expect(page.loads).toEqual([[0, 2]]);
  });

  it('loads nothing when every frame heard has the bridge', async () => {
    const page = tab({ frames: 5, bridged: [0, 1, 2, 3, 4] });
    await createMissingBridgeLoader({ ...page, admitFrames: capAt(64) })(1);
    expect(page.loads).toEqual([]);
  });

  it('loads into every frame when it cannot look (no probe), and finds none', async () => {
    const page = tab({ frames: 3 });
    const found = await createMissingBridgeLoader({ loadConnector: page.loadConnector, admitFrames: capAt(64) })(1);
    expect(found).toEqual([]);
    expect(page.loads).toEqual(['all']);
  });
});
