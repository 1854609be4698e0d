import { describe, expect, it, vi } from 'vitest';
import { WAKE_EVENT } from '../webmcp/wake-event';
import type { PolyfillModelContext } from './install-model-context-polyfill';
import { type ModelContextStub, STUB_KEY } from './install-model-context-stub';
import { serveAdoptedFrames } from './serve-adopted-frames';

type FakeWindow = Record<PropertyKey, unknown> & { length: number; parent: FakeWindow; document: unknown };

/** A top window of `https://shop.test` whose frames are `children`; wakes are raised with `wake()`. */
function topWindow(children: FakeWindow[]) {
  const listeners: (() => void)[] = [];
  const top = {
    origin: 'https://shop.test',
    length: children.length,
    frameElement: null,
    document: {},
    addEventListener: (type: string, listener: () => void) => type === WAKE_EVENT && listeners.push(listener),
  } as unknown as FakeWindow;
  top.parent = top;
  children.forEach((child, i) => {
    top[i] = child;
    child.parent = top;
  });
  const wake = () => {
    for (const listener of listeners) listener();
  };
  return { top, wake };
}

/** A frame's window with a document; `origin` throws when it is another origin's, as a browser's does. */
function frameWindow(origin = 'https://shop.test'): FakeWindow {
  const win = {
    length: 0,
    frameElement: { tagName: 'IFRAME', getAttribute: () => null, src: 'https://shop.test/next' },
  } as unknown as FakeWindow;
  Object.defineProperty(win, 'origin', {
    get: () => {
      if (origin !== 'https://shop.test') throw new DOMException('Blocked a frame', 'SecurityError');
      return origin;
    },
  });
  win.document = { defaultView: win };
  return win;
}

const adopt = (child: FakeWindow, host: FakeWindow, doc = child.document) => {
  const stub = { h: host, d: doc } as unknown as ModelContextStub;
  child[STUB_KEY] = stub;
  return stub;
};

describe('serveAdoptedFrames', () => {
  it('gives each document its host adopted a polyfill once: those adopted already, then at a wake', () => {
    const first = frameWindow();
    const later = frameWindow();
    const { top, wake } = topWindow([first, later]);
    const firstStub = adopt(first, top);
    const takeOver = vi.fn(() => ({}) as PolyfillModelContext);
    serveAdoptedFrames(top as unknown as Window & typeof globalThis, takeOver);
    expect(takeOver.mock.calls).toEqual([[first, firstStub]]);
    const laterStub = adopt(later, top);
    wake();
    wake();
    expect(takeOver.mock.calls).toEqual([
      [first, firstStub],
      [later, laterStub],
    ]);
  });

  it('leaves alone a frame’s own stub, another host’s, one whose document was replaced or is gone, and another origin’s frame', () => {
    const own = frameWindow();
    const others = frameWindow();
    const replaced = frameWindow();
    const gone = frameWindow();
    const cross = frameWindow('https://evil.test');
    const { top, wake } = topWindow([own, others, replaced, gone, cross]);
    own[STUB_KEY] = {} as ModelContextStub;
    adopt(others, frameWindow());
    adopt(replaced, top, { defaultView: replaced });
    adopt(gone, top, { defaultView: null });
    gone.document = (gone[STUB_KEY] as ModelContextStub).d;
    cross[STUB_KEY] = { h: top, d: cross.document } as unknown as ModelContextStub;
    const takeOver = vi.fn(() => ({}) as PolyfillModelContext);
    serveAdoptedFrames(top as unknown as Window & typeof globalThis, takeOver);
    wake();
    expect(takeOver).not.toHaveBeenCalled();
  });
});
