/**
 * A watched tab's top document holds a runtime Port open to the background (DOCUMENT_PORT_NAME): the browser
 * closes it when the document goes, which is how the router hears of a renderer that crashed (no tab or
 * navigation event says so: lib/background/is-crashed-tab.ts). Frames below the top hold none.
 *
 * A stopped service worker closes the Port too; it is opened again only when the document next talks to the
 * background, so an idle tab does not wake the service worker over and over.
 */
import { DOCUMENT_PORT_NAME } from '../messaging/bridge-messages';

/** The slice of `browser.runtime` used. */
export interface DocumentPortRuntime {
  connect?(info: { name: string }): { onDisconnect: { addListener(listener: () => void): void } };
}

/** Returns `hold`: opens the Port if this is the top document and none is open now. */
export function holdDocumentPort(runtime: DocumentPortRuntime, isTop: boolean): () => void {
  let open = false;
  return () => {
    if (!isTop || open || !runtime.connect) return;
    try {
      const port = runtime.connect({ name: DOCUMENT_PORT_NAME });
      open = true;
      port.onDisconnect.addListener(() => {
        open = false;
      });
    } catch {
      // The extension was reloaded or updated: this document's bridge is an orphan, and says nothing more.
    }
  };
}
