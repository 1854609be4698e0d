/**
 * The background holds a runtime Port to the top document of every tab whose bridge runs (DOCUMENT_PORT_NAME,
 * tabs.connect): the browser closes it when the document goes, which is how the router hears of a renderer that
 * crashed (no tab or navigation event says so: is-crashed-tab.ts). The background opens it, not the page: a Port the
 * page opened would need an onConnect listener here, and that listener would hold open the side panel's Port to an
 * agent host that is gone (Chrome), so the panel would never hear that no host took it.
 *
 * A stopped service worker closes every Port; the next report of a document opens its Port again.
 */
import type { FrameSender } from './attest-frame-sender';

/** The part of a runtime Port used. */
interface HeldPort {
  onDisconnect: { addListener(listener: () => void): void };
}

interface DocumentPortsDeps {
  /** tabs.connect to the tab's top frame (that document, where the browser names documents); undefined if it threw. */
  connect(tabId: number, documentId: string | undefined): HeldPort | undefined;
  /** The Port of that document closed: a navigation, a reload, the back/forward cache, the tab closing, or a crash. */
  left(tabId: number, documentId: string | undefined): void;
}

/** The Ports the background holds, one per tab. */
interface DocumentPorts {
  /** A frame's bridge spoke (frame/ready, frame/tools), as the browser attests it: a top document gets its Port. */
  seen(frame: FrameSender): void;
}

/** Creates the background's document Ports. */
export function createDocumentPorts(deps: DocumentPortsDeps): DocumentPorts {
  const held = new Map<number, string | undefined>();
  return {
    seen(frame) {
      if (frame.frameId !== 0) return;
      const { tabId, documentId } = frame;
      if (held.has(tabId) && held.get(tabId) === documentId) return;
      const port = deps.connect(tabId, documentId);
      if (!port) return;
      held.set(tabId, documentId);
      port.onDisconnect.addListener(() => {
        // A newer document's Port may have replaced this one already.
        if (held.get(tabId) === documentId) held.delete(tabId);
        deps.left(tabId, documentId);
      });
    },
  };
}
