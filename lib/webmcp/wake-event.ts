/**
 * Raised on the window when the page first uses WebMCP: the page world's stub (install-model-context-stub.ts)
 * raises it, the isolated world's stub (entrypoints/stub.ts) hears it and asks for the bridge. A window event is
 * the one thing both worlds see, and it carries nothing.
 */
export const WAKE_EVENT = 'webmcp-agent:wake';
