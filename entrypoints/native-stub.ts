import { requestConnector } from '@/lib/isolated-world/request-connector';
import { afterFrameDocument } from '@/lib/webmcp/after-frame-document';
import { watchForNativePageTools } from '@/lib/webmcp/watch-for-native-page-tools';

/**
 * Where the browser has native WebMCP, Chrome registers this at run time in place of the page-world stub
 * (lib/background/create-stub-sync.ts): in the isolated world, at document_start, it watches the native
 * modelContext and the forms, and at the first sign of WebMCP asks the background for the bridge.
 * docs/architecture.md, "The lazy connector".
 */
export default defineUnlistedScript(() =>
  // Not in a frame's initial about:blank while its document loads: the read would bind it (after-frame-document.ts).
  afterFrameDocument(window, () => {
    const native = (document as unknown as { modelContext?: EventTarget }).modelContext;
    if (native) watchForNativePageTools(window, native, () => requestConnector(chrome, true));
  }),
);
