import { WAKE_EVENT } from '@/lib/webmcp/wake-event';
import { requestConnector } from '@/lib/isolated-world/request-connector';

/**
 * What every frame of every page runs at document_start, in the extension's isolated world (declared in
 * wxt.config.ts): when the page's world raises WAKE_EVENT (the page-world stub, at the first sign of WebMCP), it
 * asks the background for the bridge (frame-connector.ts here, page-connector.ts in the page's world). docs/architecture.md,
 * "The lazy connector".
 *
 * It touches nothing else until then. Not the extension API: the first use of `chrome.runtime` in a frame sets up
 * its bindings, a millisecond or more. Not `document`, nor `Document`: building them for this world costs a page
 * 0.4–0.6 ms (docs/architecture.md, "The lazy connector"). Where the browser has native WebMCP, Chrome
 * also registers native-stub.ts, which does read the document.
 */
export default defineUnlistedScript(() => {
  addEventListener(WAKE_EVENT, () => requestConnector((globalThis as { browser?: typeof chrome }).browser ?? chrome, false), {
    once: true,
  });
});
