import { installModelContextStub } from '@/lib/page-world/install-model-context-stub';
import { mirrorFirefoxModelContext } from '@/lib/page-world/mirror-firefox-model-context';

/**
 * The page's world at document_start, only where the browser has no native WebMCP (Chrome registers it at run
 * time, see lib/background/create-stub-sync.ts; Firefox declares it in wxt.config.ts): `document.modelContext`
 * exists before page scripts run, and records what they do until the polyfill loads. In the Firefox build it also
 * mirrors what the page registers on Firefox's own `navigator.modelContext` (lib/page-world/mirror-firefox-model-context.ts);
 * the Chrome build leaves that code out (a constant condition), so Chrome's pages parse not a byte more.
 */
export default defineUnlistedScript(() =>
  installModelContextStub(window, undefined, import.meta.env.BROWSER === 'firefox' ? mirrorFirefoxModelContext : undefined),
);
