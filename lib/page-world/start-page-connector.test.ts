import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_CONNECTOR_NAME } from '../webmcp/connector-keys';
import { startPageConnector } from './start-page-connector';

type PageWindow = Window & typeof globalThis & Record<PropertyKey, unknown>;
const STARTED_KEY = Symbol.for(PAGE_CONNECTOR_NAME);
const opened: HappyWindow[] = [];

/** A fresh secure page world, its `Document` the class its document inherits from (as in a browser). */
function pageWorld(url = 'https://shop.test/'): PageWindow {
  const happy = new HappyWindow({ url });
  opened.push(happy);
  Object.defineProperty(happy, 'isSecureContext', { configurable: true, value: true });
  let proto = Object.getPrototypeOf(happy.document);
  while (proto.constructor.name !== 'Document') proto = Object.getPrototypeOf(proto);
  Object.defineProperty(happy, 'Document', { configurable: true, value: proto.constructor });
  return happy as unknown as PageWindow;
}

afterEach(async () => {
  for (const happy of opened.splice(0)) {
    delete (happy as unknown as { Document: { prototype: Record<string, unknown> } }).Document.prototype.modelContext;
    await happy.happyDOM.close();
  }
});

describe('startPageConnector', () => {
  it('starts once per document', () => {
    const win = pageWorld();
    startPageConnector(win);
    const mark = win[STARTED_KEY];
    expect(typeof mark).toBe('function');
    startPageConnector(win);
    expect(win[STARTED_KEY]).toBe(mark);
  });

  it("starts again for the next document of a window kept from the frame's initial about:blank", () => {
    const win = pageWorld();
    startPageConnector(win);
    const stale = win[STARTED_KEY];
    // As when the frame's first same-origin document replaced its initial about:blank and kept its window.
    const next = win.document.implementation.createHTMLDocument('first document');
    Object.defineProperty(win, 'document', { configurable: true, value: next });
    startPageConnector(win);
    const fresh = win[STARTED_KEY];
    expect(typeof fresh).toBe('function');
    expect(fresh).not.toBe(stale);
    expect((fresh as unknown as Record<symbol, unknown>)[Symbol.for(`${PAGE_CONNECTOR_NAME}.document`)]).toBe(next);
    // The stale bridge's key function proves nothing: its document is gone.
    expect((stale as (key: unknown) => unknown)('key')).toBe(false);
  });

  it("reads no modelContext in a frame's initial about:blank while the frame loads its src, and serves it if the load left it", () => {
    const win = pageWorld('about:blank');
    const parent = pageWorld();
    const element = parent.document.createElement('iframe');
    element.setAttribute('src', '/held.html');
    Object.defineProperty(win, 'frameElement', { configurable: true, value: element });
    // Native WebMCP's getter, counting reads: in Chromium 156 the first one binds the document's WebMCP host.
    let reads = 0;
    Object.defineProperty(win.Document.prototype, 'modelContext', {
      configurable: true,
      get() {
        reads++;
        return new EventTarget();
      },
    });
    startPageConnector(win);
    // Marked, so that the bridge is not loaded twice; served only once the frame's load is over.
    expect(typeof win[STARTED_KEY]).toBe('function');
    expect((win[STARTED_KEY] as (key: unknown) => unknown)('early key')).toBe(true);
    expect(reads).toBe(0);
    element.dispatchEvent(new (parent as unknown as { Event: typeof Event }).Event('load'));
    expect(reads).toBeGreaterThan(0);
  });

  it('stays out of a window where the page defined the mark first', () => {
    const win = pageWorld();
    const own = () => 'the page’s';
    Object.defineProperty(win, STARTED_KEY, { value: own });
    startPageConnector(win);
    expect(win[STARTED_KEY]).toBe(own);
    expect(Object.hasOwn(win.Document.prototype, 'modelContext')).toBe(false);
  });
});
