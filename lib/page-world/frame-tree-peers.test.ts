import { describe, expect, it, vi } from 'vitest';
import { STUB_KEY } from './install-model-context-stub';
import { frameTreePeers, isSameOrigin, listFrameTreeTools, notifyFrameTree, offerPeer, type Peer, runInPeer } from './frame-tree-peers';
import { fakeFrameWindow } from '../testing/fake-frame-window';

function withTop(top: Window, ...wins: Window[]): void {
  for (const win of [top, ...wins]) (win as unknown as Record<string, unknown>).top = top;
}

const peer = (origin: string, names: string[] = [], changed = () => {}): Peer => ({
  origin,
  tools: () => names.map((name) => ({ name, title: '', description: `${name} (${origin})` })),
  run: () => Promise.resolve(null),
  changed,
});

describe('frameTreePeers', () => {
  it('lists the same-origin documents breadth first from the top, reaching them below cross-origin frames', () => {
    const deep = fakeFrameWindow('https://shop.example');
    const cross = fakeFrameWindow('cross', [deep]);
    const sibling = fakeFrameWindow('https://shop.example');
    const self = fakeFrameWindow('https://shop.example');
    const top = fakeFrameWindow('https://shop.example', [cross, self, sibling]);
    withTop(top, deep, cross, sibling, self);
    const own = peer('https://shop.example');
    const siblingPeer = peer('https://shop.example');
    offerPeer(sibling, siblingPeer);
    expect(frameTreePeers(self, own)).toEqual([
      [top, undefined],
      [self, own],
      [sibling, siblingPeer],
      [deep, undefined],
    ]);
  });
});

describe('isSameOrigin', () => {
  it('never reads a cross-origin window beyond what throws', () => {
    expect(isSameOrigin(fakeFrameWindow('https://shop.example'), 'https://shop.example')).toBe(true);
    expect(isSameOrigin(fakeFrameWindow('https://other.example'), 'https://shop.example')).toBe(false);
    expect(isSameOrigin(fakeFrameWindow('cross'), 'https://shop.example')).toBe(false);
  });
});

describe('listFrameTreeTools', () => {
  it('sorts by name, keeping the tree order between equal names', () => {
    const [a, b] = [fakeFrameWindow('https://a.example'), fakeFrameWindow('https://b.example')];
    const tools = listFrameTreeTools([
      [a, peer('https://a.example', ['zeta', 'alpha'])],
      [fakeFrameWindow('https://a.example'), undefined],
      [b, peer('https://b.example', ['alpha'])],
    ]);
    expect(tools.map((tool) => [tool.name, tool.window === a ? 'a' : 'b'])).toEqual([
      ['alpha', 'a'],
      ['alpha', 'b'],
      ['zeta', 'a'],
    ]);
  });
});

describe('notifyFrameTree', () => {
  it("fires toolchange at each polyfill in the tree's order, at a read stub where none loaded, past a window that went away", () => {
    const order: string[] = [];
    const stubbed = fakeFrameWindow('https://shop.example') as Window & Record<symbol, unknown>;
    (stubbed as unknown as Record<string, unknown>).Event = Event;
    const built = new EventTarget();
    built.addEventListener('toolchange', () => order.push('stub'));
    stubbed[STUB_KEY] = { built };
    notifyFrameTree([
      [fakeFrameWindow('x'), peer('x', [], () => order.push('first'))],
      [
        fakeFrameWindow('x'),
        peer('x', [], () => {
          throw new Error('gone');
        }),
      ],
      [stubbed, undefined],
      [fakeFrameWindow('x'), peer('x', [], () => order.push('last'))],
    ]);
    expect(order).toEqual(['first', 'stub', 'last']);
  });
});

describe('runInPeer', () => {
  it("settles with the other document's answer, and rejects at once when aborted or when that document goes away", async () => {
    const caller = new EventTarget() as unknown as Window;
    const win = new EventTarget() as unknown as Window;
    await expect(runInPeer(caller, win, { ...peer('x'), run: () => Promise.resolve('done') }, 'n', '{}', undefined)).resolves.toBe('done');
    const never = {
      ...peer('x'),
      run: vi.fn((_name: string, _json: string, _signal?: AbortSignal) => new Promise<string | null>(() => {})),
    };
    const controller = new AbortController();
    const aborted = runInPeer(caller, win, never, 'n', '{}', controller.signal);
    controller.abort('stop');
    await expect(aborted).rejects.toBe('stop');
    // The other document heard of the abort, with the caller's reason.
    expect(never.run.mock.calls[0][2]?.reason).toBe('stop');
    const gone = runInPeer(caller, win, never, 'n', '{}', undefined);
    win.dispatchEvent(new Event('pagehide'));
    await expect(gone).rejects.toMatchObject({ name: 'UnknownError' });
    await expect(runInPeer(caller, win, never, 'n', '{}', AbortSignal.abort('early'))).rejects.toBe('early');
    expect(never.run).toHaveBeenCalledTimes(2);
  });

  it('cancels the call in the other document when the calling document goes away first (the spec’s unloading cleanup)', () => {
    const caller = new EventTarget() as unknown as Window;
    const win = new EventTarget() as unknown as Window;
    const never = {
      ...peer('x'),
      run: vi.fn((_name: string, _json: string, _signal?: AbortSignal) => new Promise<string | null>(() => {})),
    };
    void runInPeer(caller, win, never, 'n', '{}', undefined).catch(() => {});
    const signal = never.run.mock.calls[0][2];
    expect(signal?.aborted).toBe(false);
    caller.dispatchEvent(new Event('pagehide'));
    expect(signal?.aborted).toBe(true);
  });
});
