import type { FrameToBackgroundMessage } from '@/lib/messaging/bridge-messages';
import { watchForPageTools } from '@/lib/webmcp/watch-for-page-tools';

/**
 * What every frame of every page runs at document_start, in the extension's isolated world (declared in
 * wxt.config.ts): it announces the document and, at the first sign of WebMCP, asks the background for the bridge
 * (bridge.ts here, page-bridge.ts in the page's world). docs/architecture.md, "The lazy bridge".
 */
export default defineUnlistedScript(() => {
  const native = (document as unknown as { modelContext?: EventTarget }).modelContext;
  const send = (message: FrameToBackgroundMessage) => void browser.runtime.sendMessage(message).catch(() => {});
  // The background forgets the frame's earlier document on this, and loads the bridge at once into a tab whose
  // tools are being watched (the panel is open on it, or a call is following it to this document).
  send({ type: 'frame/ready', url: location.href });
  watchForPageTools(window, native, () => send({ type: 'frame/load', native: native !== undefined }));
});
