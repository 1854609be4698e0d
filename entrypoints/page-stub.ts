import { installModelContextStub } from '@/lib/page-world/install-model-context-stub';

/**
 * The page's world at document_start, only where the browser has no native WebMCP (Chrome registers it at run
 * time, see lib/background/create-stub-sync.ts; Firefox declares it in wxt.config.ts): `document.modelContext`
 * exists before page scripts run, and records what they do until the polyfill loads.
 */
export default defineUnlistedScript(() => installModelContextStub(window));
