/**
 * Keeps the extension's first read of `document.modelContext` out of a frame's initial about:blank while the frame
 * is still loading its `src` (or `srcdoc`). In Chromium 156 that read binds the about:blank's WebMCP host in the
 * browser, and when the frame's own document, which shares the about:blank's RenderFrameHost, binds its own, the
 * browser may take it for a second bind of one document and kill the renderer ("bad IPC message, reason 346"):
 * the tab crashes because the extension looked (docs/platform-notes.md, "Native WebMCP in Chromium"). The document
 * that is coming gets the extension's scripts of its own; the about:blank, about to go, has nothing to offer.
 *
 * An about:blank is taken as pending when it is the document of an `<iframe>`/`<frame>` whose element (readable:
 * an initial about:blank is of its parent's origin) has a `srcdoc`, or a `src` that is neither empty, about: nor
 * javascript:. A frame whose load left the about:blank in place (a 204, a refused response) fires `load` at its
 * element: the read happens then, on the same document.
 */

/** Runs `then` now, or, in a frame's pending initial about:blank, once its load ends if the about:blank is still there. */
export function afterFrameDocument(win: Window, then: () => void): void {
  const element = pendingFrameElement(win);
  if (!element) {
    then();
    return;
  }
  const document = win.document;
  element.addEventListener(
    'load',
    () => {
      // A new document came: its own scripts serve it (one of another origin leaves a window this world cannot
      // read). The about:blank still there: the load left it in place.
      let stayed = false;
      try {
        stayed = win.document === document;
      } catch {
        // The window went to another origin.
      }
      if (stayed) then();
    },
    { once: true },
  );
}

/** The frame element of a pending initial about:blank (see the file's comment), or undefined. */
export function pendingFrameElement(win: Window): Element | undefined {
  let element: Element | null;
  let url: string;
  try {
    url = win.document.URL;
    element = win.frameElement;
  } catch {
    return undefined;
  }
  if (url !== 'about:blank' || !element) return undefined;
  const tag = element.localName;
  if (tag !== 'iframe' && tag !== 'frame') return undefined;
  if (tag === 'iframe' && element.hasAttribute('srcdoc')) return element;
  const src = element.getAttribute('src')?.trim();
  if (!src) return undefined;
  let target: URL;
  try {
    target = new URL(src, element.ownerDocument.baseURI);
  } catch {
    return undefined;
  }
  return target.protocol === 'about:' || target.protocol === 'javascript:' ? undefined : element;
}
