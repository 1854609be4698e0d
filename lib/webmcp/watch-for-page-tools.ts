/**
 * The isolated content script's stub: until a frame shows any sign of WebMCP, the extension loads nothing else
 * into it (docs/architecture.md, "The lazy bridge"). The signs:
 * - the page's world raised WAKE_EVENT (install-model-context-stub.ts: it called the stub modelContext, replaced
 *   it with its own, or has a `<form toolname>`);
 * - with native WebMCP (no stub in the page's world): the native modelContext changed its tools, or the document
 *   has a `<form toolname>` once parsed, or gets one later.
 * A page can raise the event without using WebMCP: that only makes the extension load its bridge into that page.
 */
import { WAKE_EVENT } from './install-model-context-stub';

/** Calls `found` once, at the first sign of WebMCP in this frame. Returns a function that stops watching. */
export function watchForPageTools(win: Window & typeof globalThis, native: EventTarget | undefined, found: () => void): () => void {
  const doc = win.document;
  let observer: MutationObserver | undefined;
  const stop = () => {
    win.removeEventListener(WAKE_EVENT, fire);
    native?.removeEventListener('toolchange', fire);
    win.removeEventListener('DOMContentLoaded', parsed);
    observer?.disconnect();
  };
  function fire() {
    stop();
    found();
  }
  const isToolForm = (node: Node) =>
    node.nodeType === 1 && ((node as Element).matches('form[toolname]') || (node as Element).querySelector('form[toolname]') !== null);
  // Parsing is not watched (a heavy page inserts thousands of nodes): one query once it is parsed, then only what
  // scripts add.
  function parsed() {
    if (doc.querySelector('form[toolname]')) return fire();
    observer = new win.MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (isToolForm(node)) return fire();
    });
    observer.observe(doc, { childList: true, subtree: true });
  }
  win.addEventListener(WAKE_EVENT, fire);
  // Without native WebMCP the page world's stub watches forms: nothing more to do here.
  if (!native) return stop;
  native.addEventListener('toolchange', fire);
  if (doc.readyState === 'loading') win.addEventListener('DOMContentLoaded', parsed);
  else parsed();
  return stop;
}
