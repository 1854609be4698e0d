import { describe, expect, it } from 'vitest';
import { createTabWriteQueue } from './create-tab-write-queue';

/** A storage write that finishes only when the test says so. */
function heldWrites() {
  const started: { tabId: number; value: number; finish: () => void }[] = [];
  const write = (tabId: number, read: () => number) => () =>
    new Promise<void>((finish) => {
      started.push({ tabId, value: read(), finish });
    });
  return { started, write };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createTabWriteQueue', () => {
  it('coalesces a flood of writes of one tab into one in flight and one pending, which writes the latest state', async () => {
    const queue = createTabWriteQueue();
    const { started, write } = heldWrites();
    let state = 0;
    const done: Promise<void>[] = [];
    for (let i = 1; i <= 100; i++) {
      state = i;
      done.push(
        queue.schedule(
          1,
          write(1, () => state),
        ),
      );
    }
    await tick();
    expect(started.map((s) => s.value)).toEqual([1]);
    started[0].finish();
    await tick();
    expect(started.map((s) => s.value)).toEqual([1, 100]);
    started[1].finish();
    await Promise.all(done);
    expect(started).toHaveLength(2);
  });

  it("a flooding tab does not delay another tab's write: it starts at once, beside the one in flight", async () => {
    const queue = createTabWriteQueue();
    const { started, write } = heldWrites();
    for (let i = 0; i < 50; i++)
      void queue.schedule(
        1,
        write(1, () => i),
      );
    void queue.schedule(
      2,
      write(2, () => 7),
    );
    await tick();
    expect(started.map((s) => s.tabId)).toEqual([1, 2]);
  });

  it('keeps writing after a failed write', async () => {
    const queue = createTabWriteQueue();
    const writes: string[] = [];
    await queue.schedule(3, async () => {
      writes.push('a');
      throw new Error('quota');
    });
    await queue.schedule(3, async () => {
      writes.push('b');
    });
    expect(writes).toEqual(['a', 'b']);
  });
});
