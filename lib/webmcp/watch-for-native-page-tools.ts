/**
 * Where the browser has native WebMCP there is no stub modelContext whose first call could raise WAKE_EVENT, so
 * this watches for the signs itself (docs/architecture.md, "The lazy connector"). Chrome's isolated-world watcher
 * (entrypoints/native-stub.ts) runs it, and so does the page-world stub in a page loaded before the agent host
 * reported native WebMCP (install-model-context-stub.ts). The signs:
 * - the native modelContext changed its tools;
 * - the document has a `<form toolname>` once parsed, or gets one later.
 */

/** Calls `found` once, at the first sign of WebMCP in this frame. Returns a function that stops watching. */
export function watchForNativePageTools(win: Window & typeof globalThis, native: EventTarget, found: () => void): () => void {
  const doc = win.document;
  let observer: MutationObserver | undefined;
  const stop = () => {
    native.removeEventListener('toolchange', fire);
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
  native.addEventListener('toolchange', fire);
  if (doc.readyState === 'loading') win.addEventListener('DOMContentLoaded', parsed);
  else parsed();
  return stop;
}
