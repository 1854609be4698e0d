/**
 * The child's half of the `tools` delegation check (see offer-tools-delegation.ts): a token its parent's content
 * script posted into this window goes to the router, which learns from the browser who presents it.
 */
import { DELEGATION_MESSAGE_KEY } from './offer-tools-delegation';

/**
 * Forwards every delegation token that this window's parent posts to it, while `live` (the bridge's document is still
 * the window's; a window kept for the next document gets that document's listener). Returns a function that stops
 * listening.
 */
export function listenForToolsDelegation(win: Window, forward: (token: string) => void, live: () => boolean = () => true): () => void {
  if (win.parent === win) return () => {};
  const onMessage = (event: MessageEvent) => {
    // Gone quietly, so the token reaches the listener of the document that replaced this one.
    if (!live()) return win.removeEventListener('message', onMessage, true);
    // Only the parent's tokens: a sibling frame has none worth presenting, and the router checks origins anyway.
    if (event.source !== win.parent) return;
    const data = event.data as Record<string, unknown> | null;
    const token = typeof data === 'object' && data !== null ? data[DELEGATION_MESSAGE_KEY] : undefined;
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) return;
    // Native WebMCP posts nothing into a frame: page listeners added after this one do not hear the token. Those
    // added before the bridge loaded do (Chromium runs a window's listeners in the order they were added, capture or
    // not), a difference listed in docs/webmcp-conformance.md.
    event.stopImmediatePropagation();
    forward(token);
  };
  // Capture, though at the window that changes nothing: listeners run in the order they were added.
  win.addEventListener('message', onMessage, true);
  return () => win.removeEventListener('message', onMessage, true);
}
