/**
 * The smallest `document.modelContext` that can stand in for the polyfill until it loads: what the page's own
 * world gets at document_start on a browser without native WebMCP (docs/architecture.md, "The lazy connector").
 *
 * It makes `document.modelContext` (and the deprecated `navigator.modelContext`) exist before page scripts run and
 * records every call made on it, in order. The first call, a page that replaced `document.modelContext` with its
 * own implementation by DOMContentLoaded or load, or a `<form toolname>` (parsed, or added later) raises WAKE_EVENT
 * on the window: the extension then loads the real polyfill (install-model-context-polyfill.ts and friends) and
 * hands it to `upgrade`, which replays the recorded calls into it, settles their promises with its answers, and
 * from then on forwards every call.
 *
 * It runs in every frame of every page, so it does as little as it can up front (docs/architecture.md, "The
 * lazy bridge"; figures in the README, "What a page without tools pays"): one getter on `Document.prototype`, two
 * load listeners, a submit listener, a handle on the window, the two frame getters of `HTMLIFrameElement` wrapped
 * (watch-frame-windows.ts: a frame's initial about:blank gets a stub too), and two accessors for `ToolActivatedEvent` and
 * `ToolCancelEvent` that build those classes on first read (define-tool-events.ts). SubmitEvent's `agentInvoked` and `respondWith()`
 * (define-submit-event-members.ts) come at the first submit event or the first sign of WebMCP, not up front.
 * The object `document.modelContext` returns is built the first time a page reads it, and the alias on
 * `navigator` the first time the page reads `navigator`: giving Chrome's Navigator object to the page's world
 * costs a page that never reads it about 0.4 ms (bench/connector.bench.ts), so until then `window.navigator` is a
 * getter of ours that puts the browser's back, then adds the alias.
 *
 * It runs in the page's realm: it holds nothing secret, and the page may replace or wrap any of it.
 */

import { submitEventState } from './define-submit-event-members';
import { defineToolEvents, exposeToolEventsLazily } from './define-tool-events';
import { inactiveError, isInactive } from './inactive-document';
import type { MirrorRegister } from './mirror-firefox-model-context';
import { watchFrameWindows } from './watch-frame-windows';
import { WAKE_EVENT } from '../webmcp/wake-event';
import { watchForNativePageTools } from '../webmcp/watch-for-native-page-tools';

/** Where the stub's handle lives on the window (non-enumerable), for the polyfill that takes over. */
export const STUB_KEY = Symbol.for('webmcp-agent.model-context-stub');

/** What the loaded polyfill finds on the window. */
export interface ModelContextStub {
  /** The object `document.modelContext` returns: the page may hold it, so it stays the page's modelContext. */
  readonly context: EventTarget;
  /** That object if the page has read it already (a polyfill in another frame fires `toolchange` there), without building it. */
  readonly built: EventTarget | undefined;
  /** Replays the recorded calls into `real` and forwards every later call to it. Once. */
  upgrade(real: EventTarget): void;
  /**
   * "Through the alias": the page read `navigator.modelContext` more recently than `document.modelContext`, so a
   * call now comes through the 2025 API (the audit says so: lib/page-world/legacy-registrations.ts); while a recorded
   * call is replayed, what it was when the page made it. One letter, as every byte of this script counts.
   */
  a?: boolean;
  /**
   * The window whose stub gave this one to a frame's initial about:blank document, where no content script runs
   * (watch-frame-windows.ts): its wake is raised there, and that window's page bridge serves this document
   * (serve-adopted-frames.ts). Undefined for a stub the frame's own content script installed.
   */
  h?: Window & typeof globalThis;
  /** The document an adopted stub ({@link h}) was installed for. */
  d?: Document;
}

interface RecordedCall {
  method: string;
  args: unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** A legacy `registerTool(…).unregister()` made before the upgrade. */
  unregistered?: boolean;
  /** What the real implementation returned for this call. */
  result?: unknown;
  /** ModelContextStub.a when the page made it. */
  a?: boolean;
}

/** The methods of every WebMCP generation the page may call (the legacy ones come with the polyfill's shim). */
const METHODS = ['registerTool', 'unregisterTool', 'getTools', 'executeTool', 'resumeTool', 'provideContext', 'clearContext'];
/** The legacy methods that returned nothing: the stub returns nothing for them either. */
const RETURNS_NOTHING = new Set(['unregisterTool', 'clearContext']);
/** Events the real implementation dispatches on itself, passed on to the object the page holds. */
const FORWARDED_EVENTS = ['toolchange', 'toolactivated', 'toolcancel'];

const define = (target: object, key: PropertyKey, descriptor: PropertyDescriptor) =>
  Object.defineProperty(target, key, { configurable: true, ...descriptor });

/**
 * Installs the stub. Where the browser has a modelContext of its own (native WebMCP), installs nothing and only
 * watches the native one: Chrome registers this script until the agent host reports native WebMCP
 * (lib/background/create-stub-sync.ts), and a page loaded before that report must still wake the extension.
 *
 * With `host`, the stub of a frame's initial about:blank document, adopted by `host`'s stub when the page first
 * reached that document ({@link ModelContextStub.h}): it wakes `host`, and watches neither submits nor loads (the
 * document never loads; its window may be kept by the same-origin document that replaces it).
 *
 * With `mirror` (the Firefox build: mirror-firefox-model-context.ts), each window that gets a stub, adopted ones too,
 * also has its registrations on the browser's own `navigator.modelContext` made on this stub.
 *
 * long-function: every frame of every page parses this at document_start (page-stub.js), so its bytes are budgeted
 * (`npm run bench`, connector.bench.ts, prints them): one closure shares its state without the names of more parts.
 */
export function installModelContextStub(
  win: Window & typeof globalThis,
  host?: Window & typeof globalThis,
  mirror?: (win: Window & typeof globalThis, register: MirrorRegister) => void,
): void {
  // Where Chromium defines it: a getter on Document.prototype. Read from the prototype, not from `document`:
  // creating the page world's `document` object is work a page without scripts never asked for.
  const proto = win.Document.prototype;
  const old = (win as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
  if (old?.h) {
    // The frame's own content script came to the adopted document after all: its own bridge serves it.
    if (old.d === win.document) {
      old.h = undefined;
      return;
    }
    // Else the window outlived the adopted about:blank (a same-origin document replaced it and kept its window):
    // the modelContext getter on Document.prototype is that stub's, not native, and this document gets its own.
  } else if ('modelContext' in proto) {
    const native = (win.document as { modelContext?: EventTarget }).modelContext;
    if (native) watchForNativePageTools(win, native, () => win.dispatchEvent(new win.Event(WAKE_EVENT)));
    return;
  }
  // [SecureContext], as native's (Chromium counts a data: frame as no secure context): nothing of WebMCP there.
  if (!win.isSecureContext) return;
  // ToolActivatedEvent and ToolCancelEvent exist from the start, as native's; each is built on first read.
  exposeToolEventsLazily(win);
  const recorded: RecordedCall[] = [];
  let real: Record<string, unknown> | undefined;
  let context: (EventTarget & Record<string, unknown>) | undefined;
  let woken = false;
  const wake = () => {
    if (woken) return;
    woken = true;
    submitEventState(win);
    const to = stub.h ?? win;
    to.dispatchEvent(new to.Event(WAKE_EVENT));
  };
  // SubmitEvent's agentInvoked and respondWith() are defined at the first sign of WebMCP (above, and when the page
  // reads document.modelContext), or at the first submit event, before any page listener sees it; not up front:
  // building SubmitEvent for a page's world costs about 40 µs (docs/webmcp-conformance.md). The polyfill, once
  // loaded, also hears every submit event here first, to mark the agent's.
  if (!host) win.addEventListener('submit', (event) => submitEventState(win).onSubmit?.(event), true);

  // A document replaced before the polyfill took over (an adopted about:blank whose frame's src loaded first, or a
  // frame's about:blank that navigated at once): no polyfill will run its calls. Native had run them by then: a
  // registration (or the 2025 API's calls that returned nothing) succeeded and its tool went with the document; any
  // other call fails as one on a document that is gone. A document kept for the back/forward cache keeps its calls.
  // Listened for from the first recorded call, not at install: a pagehide listener costs every frame of every page
  // about 40 µs at document_start, and a page that calls nothing has nothing to settle. The document is read there,
  // not now: building the page world's `document` costs every page a few tenths of a millisecond at document_start.
  let settling = false;
  const settleAtPagehide = () => {
    if (settling) return;
    settling = true;
    win.addEventListener('pagehide', (event) => {
      if (real || event.persisted) return;
      for (const call of recorded.splice(0)) {
        if (/^(reg|unr|pro|cle)/.test(call.method)) call.resolve(undefined);
        else call.reject(inactiveError((stub.d as Document | undefined) ?? win.document));
      }
    });
  };

  /** The page's modelContext, built on first use. */
  const contextNow = (): EventTarget & Record<string, unknown> => {
    if (context) return context;
    const doc = win.document;
    // EventTarget reached through Document.prototype: a removed frame's window no longer makes `EventTarget`.
    const target = new (Object.getPrototypeOf(Object.getPrototypeOf(proto)).constructor)() as EventTarget & Record<string, unknown>;
    for (const method of METHODS) {
      define(target, method, {
        writable: true,
        value(...args: unknown[]) {
          if (real) return Reflect.apply(real[method] as (...a: unknown[]) => unknown, real, args);
          // A removed frame's document: no polyfill will ever come (inactive-document.ts).
          if (isInactive(doc)) return RETURNS_NOTHING.has(method) ? undefined : Promise.reject(inactiveError(doc));
          const call = { method, args, a: stub.a } as RecordedCall;
          const promise = new Promise((resolve, reject) => {
            call.resolve = resolve;
            call.reject = reject;
          });
          recorded.push(call);
          settleAtPagehide();
          // After the call is recorded: an adopted stub's host may take over at once, in the wake's dispatch.
          wake();
          if (RETURNS_NOTHING.has(method)) {
            promise.catch(() => undefined);
            return undefined;
          }
          if (method !== 'registerTool') return promise;
          // The 2025 API: registerTool(…) returned {unregister()}.
          return Object.assign(promise, {
            unregister: () => {
              if ('result' in call) (call.result as { unregister?: () => void } | undefined)?.unregister?.();
              else call.unregistered = true;
            },
          });
        },
      });
    }
    // A document that only listens for toolchange (another origin's exposed tools, issue 23's note) hears them
    // once the polyfill has loaded: a toolchange listener (`ontoolchange` too, which adds one) wakes it, as a call does.
    define(target, 'addEventListener', {
      writable: true,
      value(type: unknown, ...rest: unknown[]) {
        if (type === 'toolchange') wake();
        return Reflect.apply(proto.addEventListener, this, [type, ...rest]);
      },
    });
    for (const type of FORWARDED_EVENTS) {
      let handler: ((event: Event) => void) | null = null;
      define(target, `on${type}`, {
        get: () => handler,
        set(value: unknown) {
          if (handler) target.removeEventListener(type, handler);
          handler = typeof value === 'function' ? (value as (event: Event) => void) : null;
          if (handler) target.addEventListener(type, handler);
        },
      });
    }
    if (!isInactive(doc)) submitEventState(win);
    context = target;
    return target;
  };

  const stub: ModelContextStub = {
    h: host,
    d: host && win.document,
    get context() {
      return contextNow();
    },
    get built() {
      return context;
    },
    upgrade(target) {
      if (real) return;
      const page = contextNow();
      real = target as unknown as Record<string, unknown>;
      const classes = defineToolEvents(win);
      for (const type of FORWARDED_EVENTS) {
        target.addEventListener(type, (event) => {
          const toolName = (event as { toolName?: unknown }).toolName;
          page.dispatchEvent(
            type === 'toolactivated'
              ? new classes.ToolActivatedEvent(type, { toolName: String(toolName) })
              : type === 'toolcancel'
                ? new classes.ToolCancelEvent(type, { toolName: String(toolName) })
                : new win.Event(type),
          );
        });
      }
      for (const call of recorded.splice(0)) {
        stub.a = call.a;
        try {
          const result = Reflect.apply(real[call.method] as (...a: unknown[]) => unknown, real, call.args);
          call.result = result;
          if (call.unregistered) (result as { unregister?: () => void } | undefined)?.unregister?.();
          Promise.resolve(result).then(call.resolve, call.reject);
        } catch (error) {
          call.reject(error);
        }
      }
    },
  };
  define(win, STUB_KEY, { value: stub });
  // Firefox's own navigator.modelContext (mirror-firefox-model-context.ts; the Firefox build only): its registrations
  // also come to this document's modelContext, as the page's own calls do.
  mirror?.(win, (tool, options) => (contextNow().registerTool as MirrorRegister)(tool, options));

  // While `probing`, the getter answers PROBE instead of building the context: how the load check below tells
  // whether `document.modelContext` is still this stub without building anything.
  const PROBE = {};
  let probing = false;
  define(proto, 'modelContext', {
    enumerable: true,
    get(this: Document) {
      if (this !== win.document) return undefined;
      stub.a = false;
      return probing ? PROBE : contextNow();
    },
  });
  installNavigatorAliasLazily(win, stub);
  // The initial about:blank of a frame still loading its src, as the page reaches it: no content script runs there.
  watchFrameWindows(win, (child) => {
    if (!(child as unknown as Record<symbol, unknown>)[STUB_KEY])
      installModelContextStub(child as Window & typeof globalThis, host ?? win, mirror);
  });
  if (host) {
    return;
  }

  // Once parsed (and again once loaded): a page that brought its own implementation registers on that, not on
  // this; a `<form toolname>` is a declarative tool the polyfill must serve. Parsing itself is not watched (a heavy
  // page inserts thousands of nodes), only what scripts add afterwards.
  let forms: MutationObserver | undefined;
  const look = () => {
    if (woken || real) return;
    const doc = win.document;
    probing = true;
    let current: unknown;
    try {
      current = (doc as { modelContext?: unknown }).modelContext;
    } finally {
      probing = false;
    }
    if (current !== PROBE || doc.querySelector('form[toolname]')) {
      forms?.disconnect();
      wake();
      return;
    }
    forms ??= new win.MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType === 1 && ((node as Element).matches('form[toolname]') || (node as Element).querySelector('form[toolname]'))) {
            forms?.disconnect();
            return wake();
          }
        }
      }
    });
    forms.observe(doc, { childList: true, subtree: true });
  };
  win.addEventListener('DOMContentLoaded', look, { once: true });
  win.addEventListener('load', look, { once: true });
}

/**
 * `navigator.modelContext`, the deprecated alias that follows `document.modelContext`, added the first time
 * anything reads `window.navigator`: until then `window.navigator` is our getter, which puts the browser's own
 * accessor back, adds the alias and answers as the browser's would. Where the window's accessor cannot be
 * replaced, the alias is added now. A read of the alias sets `stub.a`, after its own read of `document.modelContext`
 * (which clears it).
 */
function installNavigatorAliasLazily(win: Window & typeof globalThis, stub: ModelContextStub): void {
  const addAlias = () => {
    const nav = win.navigator;
    if (!('modelContext' in nav)) {
      define(nav, 'modelContext', {
        enumerable: true,
        get: () => {
          const context = (win.document as { modelContext?: unknown }).modelContext;
          stub.a = true;
          return context;
        },
      });
    }
  };
  const own = Object.getOwnPropertyDescriptor(win, 'navigator');
  if (!own?.get || !own.configurable) {
    addAlias();
    return;
  }
  define(win, 'navigator', {
    enumerable: own.enumerable,
    get(this: unknown) {
      Object.defineProperty(win, 'navigator', own);
      addAlias();
      return Reflect.apply(own.get as () => unknown, this, []);
    },
    ...(own.set ? { set: own.set } : {}),
  });
}
