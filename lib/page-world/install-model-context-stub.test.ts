import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { submitEventState } from './define-submit-event-members';
import { installModelContextStub, type ModelContextStub, STUB_KEY } from './install-model-context-stub';
import { WAKE_EVENT } from '../webmcp/wake-event';

type PageWindow = Window & typeof globalThis & Record<PropertyKey, unknown>;
const opened: HappyWindow[] = [];

/**
 * A fresh page world. happy-dom's `document` does not inherit from `window.Document.prototype` as a browser's does
 * (its classes are layered per window), so `Document` is pointed at the class the document does inherit from.
 */
function pageWorld(html = '<p>No tools</p>', secure = true): { win: PageWindow; doc: Document & { modelContext?: any } } {
  const happy = new HappyWindow({ url: secure ? 'https://shop.test/' : 'http://shop.test/' });
  opened.push(happy);
  // happy-dom has no isSecureContext: the browser's answer for the URL.
  Object.defineProperty(happy, 'isSecureContext', { configurable: true, value: secure });
  let proto = Object.getPrototypeOf(happy.document);
  while (proto.constructor.name !== 'Document') proto = Object.getPrototypeOf(proto);
  Object.defineProperty(happy, 'Document', { configurable: true, value: proto.constructor });
  happy.document.body.innerHTML = html;
  return { win: happy as unknown as PageWindow, doc: happy.document as unknown as Document & { modelContext?: any } };
}

afterEach(async () => {
  for (const happy of opened.splice(0)) {
    // The stub's getter sits on a class happy-dom shares between windows.
    delete (happy as unknown as { Document: { prototype: Record<string, unknown> } }).Document.prototype.modelContext;
    await happy.happyDOM.close();
  }
});

/** Resolves on the next WAKE_EVENT of `win`; counts every one. */
function wakes(win: PageWindow): { count: () => number; next: Promise<void> } {
  let count = 0;
  const next = new Promise<void>((resolve) =>
    win.addEventListener(WAKE_EVENT, () => {
      count++;
      resolve();
    }),
  );
  return { count: () => count, next };
}

const parsed = (win: PageWindow) => win.dispatchEvent(new win.Event('DOMContentLoaded'));

/** A stand-in for the polyfill that answers every method with what it was called with. */
function fakeReal(win: PageWindow) {
  const real = new win.EventTarget() as EventTarget & Record<string, unknown>;
  const calls: [string, unknown[]][] = [];
  for (const method of ['registerTool', 'unregisterTool', 'getTools', 'executeTool', 'provideContext', 'clearContext']) {
    real[method] = (...args: unknown[]) => {
      calls.push([method, args]);
      if (method === 'getTools') return Promise.resolve(['listed']);
      if (method === 'registerTool') return Object.assign(Promise.resolve(), { unregister: () => calls.push(['unregister', args]) });
      return Promise.resolve(`${method} done`);
    };
  }
  return { real, calls };
}

describe('installModelContextStub', () => {
  it('gives document.modelContext and the navigator alias before page scripts run, for this document only', () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    expect(typeof doc.modelContext.registerTool).toBe('function');
    expect(doc.modelContext).toBe(doc.modelContext);
    expect('modelContext' in win.navigator).toBe(true);
    expect((win.navigator as any).modelContext).toBe(doc.modelContext);
    // Another document of the same window (a page's DOMParser result) has none.
    const other = win.document.implementation.createHTMLDocument('other') as Document & { modelContext?: unknown };
    expect(other.modelContext).toBeUndefined();
  });

  it('gives nothing of WebMCP to a document that is no secure context ([SecureContext], as native)', () => {
    const { win, doc } = pageWorld('<p>No tools</p>', false);
    installModelContextStub(win);
    expect(doc.modelContext).toBeUndefined();
    expect('modelContext' in Object.getPrototypeOf(Object.getPrototypeOf(doc))).toBe(false);
    expect(Object.getOwnPropertyDescriptor(win, 'ToolActivatedEvent')).toBeUndefined();
    expect(win[STUB_KEY]).toBeUndefined();
  });

  it('makes ToolActivatedEvent and ToolCancelEvent exist from the start, built on first read, without waking anything', () => {
    const { win } = pageWorld();
    const woken = wakes(win);
    installModelContextStub(win);
    expect(Object.getOwnPropertyDescriptor(win, 'ToolActivatedEvent')?.get).toBeTypeOf('function');
    const made = new (win.ToolCancelEvent as new (type: string, init: { toolName: string }) => Event & { toolName: string })('toolcancel', {
      toolName: 't',
    });
    expect([made.toolName, made instanceof win.Event, woken.count()]).toEqual(['t', true, 0]);
    expect(Object.getOwnPropertyDescriptor(win, 'ToolCancelEvent')).toMatchObject({ writable: true, enumerable: false });
  });

  it("hands every submit event to the polyfill first, and SubmitEvent's agentInvoked and respondWith() exist by then", () => {
    const { win, doc } = pageWorld('<form id="f"><button>Go</button></form>');
    installModelContextStub(win);
    const form = doc.getElementById('f') as HTMLFormElement;
    const order: string[] = [];
    submitEventState(win).onSubmit = () => order.push('polyfill');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const e = event as SubmitEvent & Record<string, any>;
      order.push(`page: ${e.agentInvoked}`);
      expect(() => e.respondWith(Promise.resolve(1))).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    });
    form.requestSubmit();
    expect(order).toEqual(['polyfill', 'page: false']);
  });

  it('installs nothing where the browser has its own modelContext', () => {
    const { win, doc } = pageWorld();
    const native = new win.EventTarget();
    Object.defineProperty(win.Document.prototype, 'modelContext', { configurable: true, get: () => native });
    installModelContextStub(win);
    expect(win[STUB_KEY]).toBeUndefined();
    expect(doc.modelContext).toBe(native);
    expect('modelContext' in win.navigator).toBe(false);
  });

  it("there, wakes the extension when the browser's own modelContext changes its tools", async () => {
    const { win } = pageWorld();
    const native = new win.EventTarget();
    Object.defineProperty(win.Document.prototype, 'modelContext', { configurable: true, get: () => native });
    installModelContextStub(win);
    const woken = wakes(win);
    native.dispatchEvent(new win.Event('toolchange'));
    await woken.next;
    native.dispatchEvent(new win.Event('toolchange'));
    expect(woken.count()).toBe(1);
  });

  it('builds no `document` for the page world when it is installed: that costs every page a few tenths of a millisecond', () => {
    const { win } = pageWorld();
    let reads = 0;
    let owner: object | null = win;
    while (owner && !Object.getOwnPropertyDescriptor(owner, 'document')) owner = Object.getPrototypeOf(owner);
    const browsers = Object.getOwnPropertyDescriptor(owner!, 'document')!;
    Object.defineProperty(win, 'document', {
      configurable: true,
      get() {
        reads++;
        return browsers.get ? browsers.get.call(win) : browsers.value;
      },
    });
    installModelContextStub(win);
    expect(reads).toBe(0);
  });

  it("leaves the browser's navigator accessor in place once anything reads navigator", () => {
    const { win } = pageWorld();
    const browsers = Object.getOwnPropertyDescriptor(win, 'navigator')!;
    installModelContextStub(win);
    expect(Object.getOwnPropertyDescriptor(win, 'navigator')!.get).not.toBe(browsers.get);
    const navigator = win.navigator;
    expect(Object.getOwnPropertyDescriptor(win, 'navigator')).toEqual(browsers);
    expect(win.navigator).toBe(navigator);
    expect((navigator as any).modelContext).toBe((win.document as any).modelContext);
  });

  it('notes whether a call comes through navigator.modelContext, recorded or forwarded, for the audit', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const stub = win[STUB_KEY] as ModelContextStub;
    const alias = () => (win.navigator as any).modelContext;
    expect(stub.a).toBeFalsy();
    alias().registerTool({ name: 'get_quote' });
    alias().provideContext({ tools: [] });
    // A look at the alias, then today's API: not the alias's.
    if (alias()) doc.modelContext.registerTool({ name: 'track_order' });
    const kept = alias();
    kept.registerTool({ name: 'search_products' });
    expect(stub.a).toBe(true);
    // Replayed in a later task, each recorded call says how it came while the polyfill handles it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const seen: [string, unknown][] = [];
    const { real } = fakeReal(win);
    const record = (method: string) => {
      const call = real[method] as (...args: unknown[]) => unknown;
      real[method] = (arg: { name?: string }, ...rest: unknown[]) => {
        seen.push([arg.name ?? method, stub.a]);
        return call(arg, ...rest);
      };
    };
    record('registerTool');
    record('provideContext');
    stub.upgrade(real);
    expect(seen).toEqual([
      ['get_quote', true],
      ['provideContext', true],
      ['track_order', false],
      ['search_products', true],
    ]);
    // Forwarded once the polyfill is there, the same way.
    stub.a = false;
    alias().registerTool({ name: 'add_to_cart' });
    doc.modelContext.registerTool({ name: 'get_product_options' });
    expect(seen.slice(4)).toEqual([
      ['add_to_cart', true],
      ['get_product_options', false],
    ]);
  });

  it('records calls in order, wakes the extension once, and replays them into the polyfill, settling each with its answer', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    const held = doc.modelContext;
    const registered = held.registerTool({ name: 'a' });
    const listed = held.getTools();
    expect(held.clearContext()).toBeUndefined();
    await woken.next;
    expect(woken.count()).toBe(1);

    const { real, calls } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    expect(calls.map(([method]) => method)).toEqual(['registerTool', 'getTools', 'clearContext']);
    await expect(registered).resolves.toBeUndefined();
    await expect(listed).resolves.toEqual(['listed']);
    // Later calls go straight through, and the page keeps the object it held.
    await expect(held.executeTool('a', {})).resolves.toBe('executeTool done');
    expect(doc.modelContext).toBe(held);
    expect(woken.count()).toBe(1);
  });

  it('keeps the 2025 API: registerTool(…).unregister() made before the polyfill loads unregisters once it has', () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    doc.modelContext.registerTool({ name: 'old' }).unregister();
    const { real, calls } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    expect(calls.map(([method]) => method)).toEqual(['registerTool', 'unregister']);
  });

  it("passes the polyfill's toolchange on to the object the page holds, ontoolchange included", () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const heard: string[] = [];
    doc.modelContext.ontoolchange = () => heard.push('handler');
    doc.modelContext.addEventListener('toolchange', () => heard.push('listener'));
    const { real } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    real.dispatchEvent(new win.Event('toolchange'));
    expect(heard.sort()).toEqual(['handler', 'listener']);
  });

  it('wakes for a document that only adds a toolchange listener, and not for other events', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    doc.modelContext.addEventListener('toolactivated', () => {});
    doc.modelContext.addEventListener('toolcancel', () => {});
    expect(woken.count()).toBe(0);
    doc.modelContext.addEventListener('toolchange', () => {});
    await woken.next;
    expect(woken.count()).toBe(1);
  });

  it('wakes for a document that only sets ontoolchange; reading modelContext alone wakes nothing', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    expect(typeof doc.modelContext.addEventListener).toBe('function');
    expect(woken.count()).toBe(0);
    doc.modelContext.ontoolchange = () => {};
    await woken.next;
    expect(woken.count()).toBe(1);
  });

  it('a polyfill that loads before the page ever read modelContext still serves what the page reads later', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const { real, calls } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    await expect(doc.modelContext.getTools()).resolves.toEqual(['listed']);
    expect(calls).toEqual([['getTools', []]]);
  });

  it('wakes at DOMContentLoaded for a <form toolname>, and not for a page without one', async () => {
    const declarative = pageWorld('<form toolname="search"><input name="q"></form>');
    installModelContextStub(declarative.win);
    const woken = wakes(declarative.win);
    parsed(declarative.win);
    await woken.next;

    const plain = pageWorld();
    installModelContextStub(plain.win);
    const none = wakes(plain.win);
    parsed(plain.win);
    plain.win.dispatchEvent(new plain.win.Event('load'));
    expect(none.count()).toBe(0);
  });

  it('wakes for a <form toolname> a script adds after parsing', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    parsed(win);
    const wrapper = doc.createElement('div');
    wrapper.innerHTML = '<form toolname="later"></form>';
    doc.body.append(wrapper);
    await woken.next;
    expect(woken.count()).toBe(1);
  });

  it('wakes when the page replaced document.modelContext with its own implementation by load', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    parsed(win);
    Object.defineProperty(doc, 'modelContext', { configurable: true, value: { registerTool() {} } });
    win.dispatchEvent(new win.Event('load'));
    await woken.next;
  });

  it("a removed frame's document keeps its modelContext, whose methods reject with InvalidStateError and wake nothing", async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const woken = wakes(win);
    const held = doc.modelContext;
    // What a document whose frame was removed (or navigated away) answers.
    Object.defineProperty(doc, 'defaultView', { configurable: true, value: null });
    expect(doc.modelContext).toBe(held);
    for (const call of [() => held.registerTool({ name: 'a', description: 'd', execute: () => 1 }), () => held.getTools()]) {
      await expect(call()).rejects.toMatchObject({ name: 'InvalidStateError', message: 'The document is not active.' });
    }
    expect(held.clearContext()).toBeUndefined();
    expect(woken.count()).toBe(0);
  });

  it('exposes the modelContext to a polyfill in another frame only once the page has read it', () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const stub = win[STUB_KEY] as ModelContextStub;
    expect(stub.built).toBeUndefined();
    const held = doc.modelContext;
    expect(stub.built).toBe(held);
  });

  it('answers nothing to a page that calls the getter on something else, or the navigator getter after it was put back', () => {
    const { win } = pageWorld();
    const ours = Object.getOwnPropertyDescriptor(win, 'navigator')!.get!;
    installModelContextStub(win);
    const stubNavigator = Object.getOwnPropertyDescriptor(win, 'navigator')!.get!;
    const getter = Object.getOwnPropertyDescriptor(win.Document.prototype, 'modelContext')!.get!;
    expect(getter.call({})).toBeUndefined();
    expect(getter.call(undefined)).toBeUndefined();
    const navigator = win.navigator;
    // A page that kept the stub's getter and calls it again gets the navigator, and the browser's accessor stays.
    expect(stubNavigator.call(win)).toBe(navigator);
    expect(Object.getOwnPropertyDescriptor(win, 'navigator')!.get).toBe(ours);
  });
});

describe('installModelContextStub when its document goes before the polyfill came (issue 46)', () => {
  it('a registration succeeds and the 2025 API’s calls that returned nothing too; the polyfill, loaded later, replays nothing', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const mc = doc.modelContext;
    const registered = mc.registerTool({ name: 't', description: 'd', execute: () => 'x' });
    const provided = mc.provideContext({ tools: [] });
    const ran = mc.executeTool({ name: 't' }, {});
    win.dispatchEvent(new win.Event('pagehide'));
    await expect(registered).resolves.toBeUndefined();
    await expect(provided).resolves.toBeUndefined();
    await expect(ran).rejects.toMatchObject({ name: 'InvalidStateError' });
    const { real, calls } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    expect(calls).toEqual([]);
  });

  it('a document kept for the back/forward cache keeps its calls for the polyfill', async () => {
    const { win, doc } = pageWorld();
    installModelContextStub(win);
    const listed = doc.modelContext.getTools();
    win.dispatchEvent(Object.assign(new win.Event('pagehide'), { persisted: true }));
    const { real, calls } = fakeReal(win);
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    await expect(listed).resolves.toEqual(['listed']);
    expect(calls.map(([method]) => method)).toEqual(['getTools']);
  });
});

describe('installModelContextStub for an adopted initial about:blank (issue 36)', () => {
  it('wakes its host, not its own window, and a call its host takes over within that wake still runs', async () => {
    const host = pageWorld();
    const child = pageWorld();
    installModelContextStub(child.win, host.win);
    const stub = child.win[STUB_KEY] as ModelContextStub;
    expect([stub.h, stub.d]).toEqual([host.win, child.doc]);
    const own = wakes(child.win);
    const { real, calls } = fakeReal(child.win);
    // The host's page bridge, once loaded, takes over in the wake's dispatch (serve-adopted-frames.ts).
    host.win.addEventListener(WAKE_EVENT, () => stub.upgrade(real));
    await expect(child.doc.modelContext.getTools()).resolves.toEqual(['listed']);
    expect(calls.map(([method]) => method)).toEqual(['getTools']);
    expect(own.count()).toBe(0);
  });

  it('as the document goes before its host took over (the frame’s src loaded first), a registration succeeds, as native’s had; other calls fail', async () => {
    const host = pageWorld();
    const child = pageWorld();
    installModelContextStub(child.win, host.win);
    const registered = child.doc.modelContext.registerTool({ name: 't', description: 'd', execute: () => 'x' });
    const listed = child.doc.modelContext.getTools();
    child.win.dispatchEvent(new child.win.Event('pagehide'));
    // Native registered the tool at once, before the document went (and the tool with it): no InvalidStateError.
    await expect(registered).resolves.toBeUndefined();
    await expect(listed).rejects.toMatchObject({ name: 'InvalidStateError' });
  });

  it('the frame’s own stub, come to the adopted document after all, hands it back to the frame', () => {
    const host = pageWorld();
    const child = pageWorld();
    installModelContextStub(child.win, host.win);
    const stub = child.win[STUB_KEY] as ModelContextStub;
    const context = child.doc.modelContext;
    installModelContextStub(child.win);
    expect(child.win[STUB_KEY]).toBe(stub);
    expect(stub.h).toBeUndefined();
    expect(child.doc.modelContext).toBe(context);
    const own = wakes(child.win);
    void context.getTools();
    expect(own.count()).toBe(1);
  });

  it('a window that outlived its adopted document gets a stub of its own: the adopted getter is not taken for native', () => {
    const host = pageWorld();
    const child = pageWorld();
    installModelContextStub(child.win, host.win);
    const old = child.win[STUB_KEY] as ModelContextStub;
    const oldContext = child.doc.modelContext;
    // As when a same-origin document replaced the initial about:blank and kept its window.
    (old as { d?: unknown }).d = {};
    installModelContextStub(child.win);
    const fresh = child.win[STUB_KEY] as ModelContextStub;
    expect(fresh).not.toBe(old);
    expect(fresh.h).toBeUndefined();
    expect(child.doc.modelContext).not.toBe(oldContext);
    const own = wakes(child.win);
    void child.doc.modelContext.registerTool({ name: 't', description: 'd', execute: () => 'x' });
    expect(own.count()).toBe(1);
  });
});

describe('installModelContextStub costs a page that calls nothing no pagehide listener (issue 46)', () => {
  it('listens for pagehide only from its first recorded call on', () => {
    const { win, doc } = pageWorld();
    const added: string[] = [];
    const add = win.addEventListener.bind(win);
    win.addEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, (boolean | AddEventListenerOptions)?]) => {
      added.push(type);
      return add(type, ...rest);
    }) as typeof win.addEventListener;
    installModelContextStub(win);
    expect(added).not.toContain('pagehide');
    doc.modelContext.getTools();
    doc.modelContext.getTools();
    expect(added.filter((type) => type === 'pagehide')).toEqual(['pagehide']);
  });
});
