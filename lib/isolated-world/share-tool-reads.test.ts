import { describe, expect, it } from 'vitest';
import { shareToolReads } from './share-tool-reads';

/** Test double: a frame's window as the shared reads see it (its document, `closed`, `pagehide`, timers). */
class FakeFrame extends EventTarget {
  document = { title: 'first document' } as unknown as Document;
  closed = false;
  setTimeout = globalThis.setTimeout.bind(globalThis);
  clearTimeout = globalThis.clearTimeout.bind(globalThis);
  setInterval = globalThis.setInterval.bind(globalThis);
  clearInterval = globalThis.clearInterval.bind(globalThis);
  /** Its document replaced without a `pagehide` this world hears (an initial about:blank's first document). */
  replaceDocument(): void {
    this.document = { title: 'replacing document' } as unknown as Document;
  }
  /** The frame navigates: a new document, after `pagehide` on the old one. */
  navigate(): void {
    this.dispatchEvent(new Event('pagehide'));
    this.document = { title: 'next document' } as unknown as Document;
  }
}

/** Test double: native getTools(), answered by the test, each read numbered. */
function fakeNative() {
  const pending: { resolve: (tools: unknown[]) => void; reject: (error: unknown) => void }[] = [];
  return {
    reads: () => pending.length,
    getTools: () => new Promise<unknown[]>((resolve, reject) => pending.push({ resolve, reject })),
    /** Answers the n-th read (from 1) with a list naming it. */
    answer: (n: number) => pending[n - 1]!.resolve([{ name: `read ${n}` }]),
    fail: (n: number) => pending[n - 1]!.reject(new DOMException('gone', 'InvalidStateError')),
  };
}

const frame = () => new FakeFrame() as unknown as Window & FakeFrame;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Three frames of one tree, reading through one native (every frame's getTools() lists the same tools). */
function tree(maxJoinedWaitMs?: number, ownerCheckMs?: number) {
  const top = frame();
  const native = fakeNative();
  const frames = [top, frame(), frame()];
  const [a, b, c] = frames.map((win) =>
    shareToolReads({
      win,
      native,
      treeTop: top,
      ...(maxJoinedWaitMs ? { maxJoinedWaitMs } : {}),
      ...(ownerCheckMs ? { ownerCheckMs } : {}),
    }),
  );
  return { top, frames, native, a: a!, b: b!, c: c! };
}

describe('shareToolReads', () => {
  it('reads at once when no other frame of the tree is reading', async () => {
    const { native, a } = tree();
    const answer = a();
    expect(native.reads()).toBe(1);
    native.answer(1);
    expect(await answer).toEqual([{ name: 'read 1' }]);
  });

  it('frames that ask while a read runs share the one read that starts after it', async () => {
    const { native, a, b, c } = tree();
    const first = a();
    const [second, third] = [b(), c()];
    expect(native.reads()).toBe(1);
    native.answer(1);
    await tick();
    expect(native.reads()).toBe(2);
    native.answer(2);
    // Neither is given the read that started before it asked: a change made meanwhile would be missing from it.
    expect(await first).toEqual([{ name: 'read 1' }]);
    expect(await second).toEqual([{ name: 'read 2' }]);
    expect(await third).toEqual([{ name: 'read 2' }]);
    expect(native.reads()).toBe(2);
  });

  it('a frame asking once the shared read has started waits for the next one', async () => {
    const { native, a, b, c } = tree();
    void a();
    const second = b();
    native.answer(1);
    await tick();
    const third = c();
    native.answer(2);
    await tick();
    expect(native.reads()).toBe(3);
    native.answer(3);
    expect(await second).toEqual([{ name: 'read 2' }]);
    expect(await third).toEqual([{ name: 'read 3' }]);
  });

  it('each frame reads alone without a tree top (a frame not same-origin all the way up)', async () => {
    const native = fakeNative();
    const reads = [frame(), frame()].map((win) => shareToolReads({ win, native, treeTop: undefined }));
    void reads[0]!();
    void reads[1]!();
    expect(native.reads()).toBe(2);
  });

  it.each([
    // `pagehide` wakes the frames at once (a tick), long before the look.
    { how: 'navigates away', leave: (f: FakeFrame) => f.navigate(), ownerCheckMs: undefined, settleMs: 0 },
    // No `pagehide` this world hears (an initial about:blank's first document): the look, every 20 ms here, finds it.
    { how: 'has its document replaced without a pagehide', leave: (f: FakeFrame) => f.replaceDocument(), ownerCheckMs: 20, settleMs: 60 },
  ])(
    'the frames that joined a read whose frame $how read for themselves, not after the safeguard',
    async ({ leave, ownerCheckMs, settleMs }) => {
      const { native, frames, a, b, c } = tree(60_000, ownerCheckMs);
      void a();
      const second = b();
      const third = c();
      native.answer(1);
      await tick();
      expect(native.reads()).toBe(2);
      // The frame running the second read (b's) leaves its document, and that read never answers on its own.
      leave(frames[1]!);
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      expect(native.reads()).toBe(3);
      native.answer(3);
      expect(await third).toEqual([{ name: 'read 3' }]);
      native.answer(2);
      expect(await second).toEqual([{ name: 'read 2' }]);
    },
  );

  it('a frame asking after the running read’s frame left does not wait for it', async () => {
    const { native, frames, a, b } = tree();
    void a();
    frames[0]!.navigate();
    const second = b();
    expect(native.reads()).toBe(2);
    native.answer(2);
    expect(await second).toEqual([{ name: 'read 2' }]);
  });

  it('the frames that joined a read that failed read for themselves; its own frame sees the failure', async () => {
    const { native, a, b, c } = tree();
    void a();
    const second = b();
    const third = c();
    native.answer(1);
    await tick();
    native.fail(2);
    await expect(second).rejects.toThrow('gone');
    await tick();
    expect(native.reads()).toBe(3);
    native.answer(3);
    expect(await third).toEqual([{ name: 'read 3' }]);
  });

  it('a frame waits for another frame’s read no longer than its safeguard', async () => {
    const { native, a, b, c } = tree(30);
    void a();
    void b();
    const third = c();
    native.answer(1);
    await tick();
    // The second read never answers and its frame says nothing.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(native.reads()).toBe(3);
    native.answer(3);
    expect(await third).toEqual([{ name: 'read 3' }]);
  });

  it('keeps the tree’s reads on the top window, out of its enumerable keys', () => {
    const { top, a } = tree();
    void a();
    expect(Object.keys(top)).not.toContain('webmcp-agent/tree-tool-reads');
    expect(Object.getOwnPropertySymbols(top).map(String)).toContain('Symbol(webmcp-agent/tree-tool-reads)');
    expect(Object.getOwnPropertyDescriptor(top, Symbol.for('webmcp-agent/tree-tool-reads'))?.enumerable).toBe(false);
  });
});
