import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { afterFrameDocument, pendingFrameElement } from './after-frame-document';

const opened: HappyWindow[] = [];

/**
 * A frame's window as its content script sees it: a document at `url`, and `frameElement`, an `<iframe>` of the
 * parent's document with these attributes (null: a top, or a frame whose embedder is of another origin).
 */
function frameWindow(url: string, attributes: Record<string, string> | null, tag = 'iframe') {
  const parent = new HappyWindow({ url: 'https://shop.test/' });
  const child = new HappyWindow({ url });
  opened.push(parent, child);
  let element: Element | null = null;
  if (attributes) {
    element = parent.document.createElement(tag) as unknown as Element;
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  }
  Object.defineProperty(child, 'frameElement', { configurable: true, get: () => element });
  return { win: child as unknown as Window, element };
}

/** The parent's `load` at the frame element, made in the element's own window as a browser makes it. */
function fireLoad(element: Element): void {
  const view = element.ownerDocument.defaultView as unknown as { Event: typeof Event };
  element.dispatchEvent(new view.Event('load'));
}

afterEach(async () => {
  for (const happy of opened.splice(0)) await happy.happyDOM.close();
});

describe('pendingFrameElement', () => {
  it("finds a frame's initial about:blank while the frame loads its src or srcdoc", () => {
    const pending: Record<string, string>[] = [
      { src: '/held.html' },
      { src: 'https://other.test/' },
      { srcdoc: '<p>hi</p>' },
      { src: ' /x ', id: 'f' },
    ];
    for (const attributes of pending) {
      const { win, element } = frameWindow('about:blank', attributes);
      expect(pendingFrameElement(win)).toBe(element);
    }
    expect(pendingFrameElement(frameWindow('about:blank', { src: '/frame.html' }, 'frame').win)).toBeDefined();
  });

  it('finds nothing for a document that is not pending: a top, a loaded frame, a frame with no src or an about: or javascript: one', () => {
    expect(pendingFrameElement(frameWindow('about:blank', null).win)).toBeUndefined();
    expect(pendingFrameElement(frameWindow('https://shop.test/frame.html', { src: '/frame.html' }).win)).toBeUndefined();
    const idle: Record<string, string>[] = [{}, { src: '' }, { src: 'about:blank' }, { src: 'javascript:void 0' }];
    for (const attributes of idle) {
      expect(pendingFrameElement(frameWindow('about:blank', attributes).win)).toBeUndefined();
    }
    expect(pendingFrameElement(frameWindow('about:blank', { data: '/x.html' }, 'object').win)).toBeUndefined();
  });

  it('finds nothing where frameElement cannot be read', () => {
    const { win } = frameWindow('about:blank', { src: '/held.html' });
    Object.defineProperty(win, 'frameElement', {
      get() {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    });
    expect(pendingFrameElement(win)).toBeUndefined();
  });
});

describe('afterFrameDocument', () => {
  it('runs at once where nothing is pending', () => {
    const ran: string[] = [];
    afterFrameDocument(frameWindow('about:blank', null).win, () => ran.push('top'));
    afterFrameDocument(frameWindow('https://shop.test/f.html', { src: '/f.html' }).win, () => ran.push('loaded'));
    expect(ran).toEqual(['top', 'loaded']);
  });

  it("waits in a pending about:blank, and never runs once the frame's document replaced it", () => {
    const { win, element } = frameWindow('about:blank', { src: '/held.html' });
    const ran: string[] = [];
    afterFrameDocument(win, () => ran.push('ran'));
    expect(ran).toEqual([]);
    // The frame's document came and kept the window (Chromium, same origin): its own scripts serve it.
    const next = win.document.implementation.createHTMLDocument('the frame document');
    Object.defineProperty(win, 'document', { configurable: true, value: next });
    fireLoad(element!);
    expect(ran).toEqual([]);
  });

  it('runs on the about:blank once the load left it in place (a 204, a refused response)', () => {
    const { win, element } = frameWindow('about:blank', { src: '/no-content' });
    const ran: string[] = [];
    afterFrameDocument(win, () => ran.push('ran'));
    fireLoad(element!);
    fireLoad(element!);
    expect(ran).toEqual(['ran']);
  });
});
