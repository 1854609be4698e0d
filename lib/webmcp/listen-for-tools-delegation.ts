/**
 * The child's half of the `tools` delegation check (see offer-tools-delegation.ts): a token its parent's content
 * script posted into this window goes to the router, which learns from the browser who presents it.
 */
import { DELEGATION_MESSAGE_KEY } from './offer-tools-delegation';

/** Forwards every delegation token that this window's parent posts to it. Returns a function that stops listening. */
export function listenForToolsDelegation(win: Window, forward: (token: string) => void): () => void {
  if (win.parent === win) return () => {};
  const onMessage = (event: MessageEvent) => {
    // Only the parent's tokens: a sibling frame has none worth presenting, and the router checks origins anyway.
    if (event.source !== win.parent) return;
    const data = event.data as Record<string, unknown> | null;
    const token = typeof data === 'object' && data !== null ? data[DELEGATION_MESSAGE_KEY] : undefined;
    if (typeof token === 'string' && token.length > 0 && token.length <= 100) forward(token);
  };
  // Capture, registered at document_start: the frame's own page scripts come later.
  win.addEventListener('message', onMessage, true);
  return () => win.removeEventListener('message', onMessage, true);
}
