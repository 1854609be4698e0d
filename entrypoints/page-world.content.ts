import { installDeclarativeForms } from '@/lib/webmcp/install-declarative-forms';
import { installLegacyShim } from '@/lib/webmcp/install-legacy-shim';
import { installModelContextPolyfill } from '@/lib/webmcp/install-model-context-polyfill';
import { servePageTools } from '@/lib/webmcp/serve-page-tools';

/** The page's realm: the WebMCP polyfill (only without a native one), the legacy shim, and the bridge's MAIN side. */
export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  matchAboutBlank: true,
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    const native = (document as any).modelContext;
    const polyfill = installModelContextPolyfill(window);
    if (polyfill) installDeclarativeForms(window, polyfill);
    const context = (document as any).modelContext;
    if (context) installLegacyShim(window, context);
    servePageTools(window, { polyfill, native });
  },
});
