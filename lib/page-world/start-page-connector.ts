/**
 * Everything the bridge needs in the page's world, started once per document: the WebMCP polyfill (taking over
 * from the stub, see install-model-context-stub.ts, or installed afresh where no stub ran), declarative forms and
 * the legacy shim on it, and the channel the isolated world reads and runs tools through. With native WebMCP
 * only the channel starts: it serves implementations the page brought itself.
 */
import { afterFrameDocument } from '../webmcp/after-frame-document';
import { PAGE_CONNECTOR_NAME } from '../webmcp/connector-keys';
import { installDeclarativeForms } from './install-declarative-forms';
import { installLegacyShim } from './install-legacy-shim';
import { legacyRegistrations } from './legacy-registrations';
import {
  exposedToolsChanged,
  installModelContextPolyfill,
  linkExposure,
  PolyfillModelContext,
  runExposedTool,
  settleToolsPolicy,
} from './install-model-context-polyfill';
import { type ModelContextStub, STUB_KEY } from './install-model-context-stub';
import { serveAdoptedFrames } from './serve-adopted-frames';
import { type PolyfillExposure, servePageTools } from './serve-page-tools';

// Also the mark that the bridge started: its value is the function the background hands this world its key with.
const STARTED_KEY = Symbol.for(PAGE_CONNECTOR_NAME);

/**
 * Starts the page's side of the bridge; a second start in the same document does nothing. A window kept from the
 * frame's initial about:blank (Chromium keeps it for the first same-origin document, docs/platform-notes.md) keeps
 * the about:blank's mark: that bridge stands down (its key function proves nothing once its document is gone) and
 * this document's starts.
 */
export function startPageConnector(win: Window & typeof globalThis): void {
  const mark: unknown = Object.getOwnPropertyDescriptor(win, STARTED_KEY)?.value;
  // A page that defined this first (anything but a mark of ours) keeps the bridge out of its own frame.
  if (Object.hasOwn(win, STARTED_KEY) && (servedBy(mark) === undefined || servedBy(mark) === win.document)) return;
  // An initial about:blank that its parent's stub adopted is served from there, with no channel of its own
  // (serve-adopted-frames.ts): a bridge loaded into it anyway (a watched tab gets one in every frame) stands down,
  // leaving no mark on the window, which the frame's next document may keep.
  const stub = (win as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
  if (stub?.h && stub.d === win.document) return;
  const document = win.document;
  let prove: ((key: string) => void) | undefined;
  // Keys handed over before this document is served wait for it (a frame's pending about:blank, below).
  const waiting: string[] = [];
  const give = (key: unknown): boolean => {
    if (typeof key !== 'string' || win.document !== document) return false;
    if (prove) prove(key);
    // The page can call this too: a few keys are kept, the background's last among them.
    else if (waiting.push(key) > 8) waiting.shift();
    return true;
  };
  Object.defineProperty(give, SERVED, { value: document });
  // Configurable, so that the next document of a kept window can put its own in its place.
  Object.defineProperty(win, STARTED_KEY, { value: give, configurable: true });
  // Nothing in a frame's initial about:blank while its document loads: reading its modelContext would bind it, and
  // the coming document's bind could then kill the renderer (after-frame-document.ts). That document gets a bridge.
  afterFrameDocument(win, () => {
    prove = serve(win).prove;
    for (const key of waiting.splice(0)) prove(key);
  });
}

// On the mark's function: the document its bridge serves (Symbol.for: a later load of this script reads it too).
const SERVED = Symbol.for(`${PAGE_CONNECTOR_NAME}.document`);

/** The document a mark of ours serves; undefined for anything else. */
function servedBy(mark: unknown): unknown {
  return typeof mark === 'function' && Object.hasOwn(mark, SERVED) ? (mark as unknown as Record<symbol, unknown>)[SERVED] : undefined;
}

function serve(win: Window & typeof globalThis): { prove: (key: string) => void } {
  const stub = (win as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
  if (stub) {
    const polyfill = takeOver(win, stub, true);
    // The initial about:blank documents this stub adopted: no bridge of their own will come (serve-adopted-frames.ts).
    const settleAdopted = serveAdoptedFrames(win, takeOver);
    return servePageTools(win, {
      polyfill: stub.context,
      settlePolicy: (allowed) => {
        settleToolsPolicy(polyfill, allowed);
        settleAdopted(allowed);
      },
      exposure: exposureOf(polyfill),
    });
  }
  // The browser's own modelContext, read where Chromium defines it: loaded late, this may find that the page has
  // already put its own implementation on `document` itself, which is not native and must be read as the page's.
  const native = nativeModelContext(win);
  const polyfill = installModelContextPolyfill(win);
  if (polyfill) installDeclarativeForms(win, polyfill);
  // The legacy API is the polyfill's: a native implementation (or a page's own) is never changed (issue 23, item 9).
  if (polyfill) installLegacyShim(win, polyfill as unknown as Parameters<typeof installLegacyShim>[1]);
  return servePageTools(win, {
    polyfill,
    native,
    ...(polyfill ? { settlePolicy: (allowed) => settleToolsPolicy(polyfill, allowed), exposure: exposureOf(polyfill) } : {}),
  });
}

/**
 * The polyfill, with the legacy shim on it (and the declarative forms where `forms`: an adopted initial about:blank
 * has none worth serving), taking over from the stub of `win`'s document.
 */
function takeOver(win: Window & typeof globalThis, stub: ModelContextStub, forms = false): PolyfillModelContext {
  const polyfill = new PolyfillModelContext(win);
  if (forms) installDeclarativeForms(win, polyfill);
  installLegacyShim(win, polyfill as unknown as Parameters<typeof installLegacyShim>[1]);
  // The replay sets the stub's alias flag call by call (legacy-registrations.ts): the page's own is put back after.
  legacyRegistrations(win).unnoticed(() => stub.upgrade(polyfill));
  return polyfill;
}

/** The browser's `document.modelContext` (a getter on Document.prototype), whatever the page put on `document`. */
function nativeModelContext(win: Window & typeof globalThis): unknown {
  const getter = Object.getOwnPropertyDescriptor(win.Document.prototype, 'modelContext')?.get;
  if (!getter) return undefined;
  try {
    return getter.call(win.document);
  } catch {
    return undefined;
  }
}

/** The polyfill's side of the relay of tools exposed across origins (lib/page-world/exposure-link.ts). */
function exposureOf(polyfill: PolyfillModelContext): PolyfillExposure {
  return {
    link: (link) => linkExposure(polyfill, link),
    changed: () => exposedToolsChanged(polyfill),
    run: (name, caller, input, signal) => runExposedTool(polyfill, name, caller, input, signal),
  };
}
