import { describe, expect, it } from 'vitest';
import { watchFrameWindows } from './watch-frame-windows';

/** A page world with an iframe class whose getters answer what the test gives each element. */
function world() {
  class HTMLIFrameElement {
    constructor(
      readonly win: unknown,
      readonly doc: unknown,
    ) {}
  }
  Object.defineProperties(HTMLIFrameElement.prototype, {
    contentWindow: {
      configurable: true,
      enumerable: true,
      get(this: HTMLIFrameElement) {
        if (!(this instanceof HTMLIFrameElement)) throw new TypeError('Illegal invocation');
        return this.win;
      },
    },
    contentDocument: {
      configurable: true,
      enumerable: true,
      get(this: HTMLIFrameElement) {
        if (!(this instanceof HTMLIFrameElement)) throw new TypeError('Illegal invocation');
        return this.doc;
      },
    },
  });
  return { win: { HTMLIFrameElement } as unknown as Window & typeof globalThis, HTMLIFrameElement };
}

describe('watchFrameWindows', () => {
  it('hands over the window behind contentWindow and contentDocument, and returns what the browser’s getter returned', () => {
    const { win, HTMLIFrameElement } = world();
    const adopted: unknown[] = [];
    watchFrameWindows(win, (child) => adopted.push(child));
    const child = { name: 'child' };
    const frame = new HTMLIFrameElement(child, { defaultView: child }) as unknown as HTMLIFrameElement & {
      contentWindow: unknown;
      contentDocument: unknown;
    };
    expect(frame.contentWindow).toBe(child);
    expect(frame.contentDocument).toEqual({ defaultView: child });
    expect(adopted).toEqual([child, child]);
  });

  it('answers as the browser’s when adopting throws (a window of another origin) or there is no document', () => {
    const { win, HTMLIFrameElement } = world();
    watchFrameWindows(win, () => {
      throw new DOMException('Blocked a frame', 'SecurityError');
    });
    const cross = { cross: true };
    const frame = new HTMLIFrameElement(cross, null) as unknown as { contentWindow: unknown; contentDocument: unknown };
    expect(frame.contentWindow).toBe(cross);
    expect(frame.contentDocument).toBeNull();
  });

  it('keeps the getters’ shape and their errors: named as the browser’s, no setter, Illegal invocation off an iframe', () => {
    const { win, HTMLIFrameElement } = world();
    watchFrameWindows(win, () => undefined);
    for (const key of ['contentWindow', 'contentDocument']) {
      const own = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, key) as PropertyDescriptor;
      expect([own.get?.name, own.set, own.enumerable, own.configurable]).toEqual([`get ${key}`, undefined, true, true]);
      expect(() => own.get?.call({})).toThrow('Illegal invocation');
    }
  });
});
