import type { FrameToBackgroundMessage } from '@/lib/messaging/bridge-messages';
import { watchForPageTools } from '@/lib/webmcp/watch-for-page-tools';

/**
 * What every frame of every page runs at document_start, in the extension's isolated world (declared in
 * wxt.config.ts): at the first sign of WebMCP it asks the background for the bridge (bridge.ts here, page-bridge.ts
 * in the page's world). docs/architecture.md, "The lazy bridge".
 *
 * It touches no extension API until then: the first use of `chrome.runtime` in a frame sets up its bindings, which
 * costs the page a millisecond or more, and a page without tools never needs them.
 */
export default defineUnlistedScript(() => {
  const native = (document as unknown as { modelContext?: EventTarget }).modelContext;
  watchForPageTools(window, native, () => {
    const api = (globalThis as { browser?: typeof chrome }).browser ?? chrome;
    const message: FrameToBackgroundMessage = { type: 'frame/load', native: native !== undefined };
    void api.runtime.sendMessage(message).catch(() => {});
  });
});
