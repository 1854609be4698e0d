import { allowsTools } from '../webmcp/allows-tools';
import { sameOriginAncestry } from '../webmcp/same-origin-ancestry';
import { WAKE_EVENT } from '../webmcp/wake-event';
import { isSameOrigin, originOf } from './frame-tree-peers';
import { isInactive } from './inactive-document';
import { type PolyfillModelContext, settleToolsPolicy } from './install-model-context-polyfill';
import { type ModelContextStub, STUB_KEY } from './install-model-context-stub';

/** How the page bridge gives an adopted document its polyfill: the stub's upgrade, as for its own. */
type TakeOver = (child: Window & typeof globalThis, stub: ModelContextStub) => PolyfillModelContext;

/**
 * Serves the initial about:blank documents that `host`'s stub adopted (watch-frame-windows.ts,
 * install-model-context-stub.ts): no content script runs there, so no bridge of their own will come. Each gets a
 * polyfill from `takeOver`, now for those adopted already and at every wake raised at `host` (an adopted stub
 * raises its own there), so that its recorded calls run and its tools are the frame tree's. Nothing of the
 * extension goes with it: no channel to the isolated world, no exposure link. Its tools are listed and run from
 * same-origin documents only, as the frame's own (their `window` is the frame's), and the agent never lists them:
 * `host`'s page bridge reports `host`'s own tools only (serve-page-tools.ts). Once the frame's src loads, the
 * adopted document is gone, and so are its tools (its polyfill hides them at `pagehide`).
 *
 * Returns how to settle the adopted documents' `tools` permissions policy where they cannot decide it themselves
 * (below a frame of another origin): with `host`'s answer from the extension, within what each `<iframe allow>`
 * between `host` and the document allows.
 */
export function serveAdoptedFrames(host: Window & typeof globalThis, takeOver: TakeOver): (allowed: boolean) => void {
  const served = new WeakSet<ModelContextStub>();
  const waiting: [PolyfillModelContext, Window][] = [];
  // Known at once where `host` can read its whole ancestry; else the extension's answer, when it comes.
  let answer = sameOriginAncestry(host) ? true : undefined;
  const settle = (context: PolyfillModelContext, child: Window, allowed: boolean) =>
    settleToolsPolicy(context, allowed && allowedBelow(child, host));
  const serve = () => {
    for (const child of sameOriginDescendants(host)) {
      const stub = (child as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
      // Only a stub this host adopted, for the document its frame still shows.
      if (!stub || stub.h !== host || !stub.d || stub.d !== child.document || isInactive(stub.d) || served.has(stub)) continue;
      served.add(stub);
      const context = takeOver(child as Window & typeof globalThis, stub);
      if (answer === undefined) waiting.push([context, child]);
      else settle(context, child, answer);
    }
  };
  host.addEventListener(WAKE_EVENT, serve);
  serve();
  return (allowed) => {
    answer = allowed;
    for (const [context, child] of waiting.splice(0)) settle(context, child, allowed);
  };
}

/** The documents below `win` of its origin, below frames of another origin too (their frames are only counted and indexed). */
function sameOriginDescendants(win: Window): Window[] {
  const origin = originOf(win);
  const found: Window[] = [];
  const queue: Window[] = [win];
  for (let i = 0; i < queue.length; i++) {
    const parent = queue[i] as Window;
    if (i > 0 && isSameOrigin(parent, origin)) found.push(parent);
    let count = 0;
    try {
      count = parent.length;
    } catch {
      // A window that went away while it was walked.
    }
    for (let j = 0; j < count; j++) {
      const child = parent[j];
      if (child) queue.push(child);
    }
  }
  return found;
}

/** Whether every same-origin `<iframe allow>` from `host` down to `child` lets `child`'s origin use tools. */
function allowedBelow(child: Window, host: Window): boolean {
  try {
    const origin = originOf(child);
    for (let win = child; win !== host; win = win.parent) {
      // Null where the embedder is of another origin: the browser's answer for that frame is not ours to give.
      const element = win.frameElement;
      if (!element) return false;
      if (
        element.tagName === 'IFRAME' &&
        !allowsTools(element.getAttribute('allow') ?? '', (element as HTMLIFrameElement).src, origin, origin)
      ) {
        return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}
