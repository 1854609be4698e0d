import { describe, expect, it } from 'vitest';
import type { BridgeFrame, FoundFrame } from './load-connector';
import { createMissingBridgeLoader } from './load-missing-bridges';

/** A tab of frames 0..n-1, of which `bridged` have the bridge; the loads it got, and whether one injection fails. */
function tab({
  frames,
  bridged = [],
  refuse,
}: {
  frames: number;
  bridged?: number[];
  refuse?: (targets: readonly BridgeFrame[]) => boolean;
}) {
  const found: FoundFrame[] = Array.from({ length: frames }, (_, frameId) => ({
    frameId,
    documentId: `doc-${frameId}`,
    hasConnector: bridged.includes(frameId),
  }));
  const loads: (number[] | 'all')[] = [];
  const loadConnector = async (_tabId: number, targets?: readonly BridgeFrame[]) => {
    loads.push(targets ? targets.map((t) => t.frameId) : 'all');
    if (targets && refuse?.(targets)) throw new Error('No document with id');
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

  it('loads nothing when every frame heard has the bridge', async () => {
    const page = tab({ frames: 5, bridged: [0, 1, 2, 3, 4] });
    await createMissingBridgeLoader({ ...page, admitFrames: capAt(64) })(1);
    expect(page.loads).toEqual([]);
  });

  it('loads each frame on its own when the one injection fails (a document went away meanwhile), so the others still get it', async () => {
    const page = tab({ frames: 4, refuse: (targets) => targets.some((t) => t.frameId === 2) });
    await createMissingBridgeLoader({ ...page, admitFrames: capAt(64) })(1);
    expect(page.loads).toEqual([[0, 1, 2, 3], [0], [1], [2], [3]]);
  });

  it('loads into every frame when it cannot look (no probe), and finds none', async () => {
    const page = tab({ frames: 3 });
    const found = await createMissingBridgeLoader({ loadConnector: page.loadConnector, admitFrames: capAt(64) })(1);
    expect(found).toEqual([]);
    expect(page.loads).toEqual(['all']);
  });
});
