/**
 * Asking the background's tool router as the agent host does, from a test: on the router's request line over a
 * runtime Port (lib/messaging/router-messages.ts ROUTER_PORT_NAME, RouterLine; lib/messaging/create-request-line.ts
 * is what the host speaks), written out so that it runs in an extension page of either browser. One ask per Port:
 * it resolves with the answer, or rejects with the router's error or when the line closes. `cancelAfterMs` sends
 * the line's cancel (the router's handler sees its signal abort) and still waits for the handler's last word.
 */
import { ROUTER_PORT_NAME } from '../../lib/messaging/router-messages';

/** One ask: its `<channel>/<verb>` and request, and when to cancel it. */
export interface RouterAsk {
  type: 'router/get-tools' | 'router/call-tool';
  request: Record<string, unknown>;
  cancelAfterMs?: number;
}

/** An async function's source text that takes a RouterAsk, for page.evaluate in an extension page. */
export const ASK_ROUTER_SOURCE = `(ask) => new Promise((resolve, reject) => {
  const runtime = (globalThis.browser ?? globalThis.chrome).runtime;
  const port = runtime.connect({ name: ${JSON.stringify(ROUTER_PORT_NAME)} });
  port.onMessage.addListener((m) => {
    if (m.id !== 1 || (m.line !== 'answer' && m.line !== 'error')) return;
    port.disconnect();
    if (m.line === 'answer') resolve(m.answer);
    else reject(new Error(m.error.name + ': ' + m.error.message));
  });
  port.onDisconnect.addListener(() => reject(new Error('The router line closed.')));
  port.postMessage({ line: 'ask', id: 1, type: ask.type, request: ask.request });
  if (ask.cancelAfterMs !== undefined) {
    setTimeout(() => port.postMessage({ line: 'cancel', id: 1, reason: { name: 'AbortError', message: 'Stopped by the test.' } }), ask.cancelAfterMs);
  }
})`;

/** The expression that runs one ask, for page.evaluate (Playwright or Puppeteer). */
export function askRouterExpression(ask: RouterAsk): string {
  return `(${ASK_ROUTER_SOURCE})(${JSON.stringify(ask)})`;
}
