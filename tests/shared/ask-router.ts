/**
 * Asking the background's tool router as the agent host does, from a test: through the handlers of the router's line
 * (lib/background/router-host-handlers.ts, what Chrome's offscreen host asks over its Port), reached through the
 * build's test hook `testToolRouter` (lib/background/install-e2e-test-hooks.ts). The line itself runs between the
 * real host and router in every side panel spec; a test page cannot open it (only the service worker does).
 * `cancelAfterMs` aborts the handler's signal, as the line's cancel does.
 */

/** One ask: its `<channel>/<verb>` and request, and when to cancel it. */
export interface RouterAsk {
  type: 'router/get-tools' | 'router/call-tool';
  request: Record<string, unknown>;
  cancelAfterMs?: number;
}

/** The expression that runs one ask in the background's global (Chrome: serviceWorker.evaluate). */
export function askRouterExpression(ask: RouterAsk): string {
  return `(async (ask) => {
    const handler = globalThis.testToolRouter.hostHandlers()[ask.type];
    const controller = new AbortController();
    if (ask.cancelAfterMs !== undefined) setTimeout(() => controller.abort(), ask.cancelAfterMs);
    return handler(ask.request, { signal: controller.signal, update: () => undefined });
  })(${JSON.stringify(ask)})`;
}
