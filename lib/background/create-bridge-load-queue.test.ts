import { describe, expect, it } from 'vitest';
import { createBridgeLoadQueue } from './create-bridge-load-queue';
import type { BridgeFrame } from './load-connector';

/** A loader whose loads end when the test says; what each load was given. */
function loader() {
  const loads: { tabId: number; frames: number[]; end: () => void }[] = [];
  const load = (tabId: number, frames: readonly BridgeFrame[]) =>
    new Promise<void>((resolve) => loads.push({ tabId, frames: frames.map((f) => f.frameId), end: resolve }));
  return { loads, load };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createBridgeLoadQueue', () => {
  it('loads the first frame of a quiet tab at once, and the frames that ask meanwhile together when it ends', async () => {
    const { loads, load } = loader();
    const queue = createBridgeLoadQueue(load);
    queue.request(1, { frameId: 0, documentId: 'top' });
    expect(loads.map((l) => l.frames)).toEqual([[0]]);
    for (let f = 1; f <= 5; f++) queue.request(1, { frameId: f, documentId: `d${f}` });
    // Another tab does not wait for this one.
    queue.request(2, { frameId: 0, documentId: 'other' });
    expect(loads.map((l) => [l.tabId, l.frames])).toEqual([
      [1, [0]],
      [2, [0]],
    ]);
    loads[0].end();
    await tick();
    expect(loads[2]).toMatchObject({ tabId: 1, frames: [1, 2, 3, 4, 5] });
    loads[2].end();
    await tick();
    // Quiet again: the next frame is loaded at once.
    queue.request(1, { frameId: 9, documentId: 'd9' });
    expect(loads.at(-1)).toMatchObject({ tabId: 1, frames: [9] });
  });

  it('goes on after a load that failed, and loads a document that asks twice once', async () => {
    const frames: number[][] = [];
    let calls = 0;
    const queue = createBridgeLoadQueue(async (_tabId, asked) => {
      frames.push(asked.map((f) => f.frameId));
      if (++calls === 1) throw new Error('No frame with id');
    });
    queue.request(1, { frameId: 1, documentId: 'd1' });
    queue.request(1, { frameId: 2, documentId: 'd2' });
    queue.request(1, { frameId: 2, documentId: 'd2' });
    await tick();
    expect(frames).toEqual([[1], [2]]);
  });

  it('drops the frames still waiting when the tab closes', async () => {
    const { loads, load } = loader();
    const queue = createBridgeLoadQueue(load);
    queue.request(1, { frameId: 0 });
    queue.request(1, { frameId: 3 });
    queue.forgetTab(1);
    loads[0].end();
    await tick();
    expect(loads).toHaveLength(1);
  });
});
