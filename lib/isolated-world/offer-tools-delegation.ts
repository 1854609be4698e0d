/**
 * The parent's half of the `tools` delegation check in polyfill mode (see lib/webmcp/allows-tools.ts). A frame
 * cannot be trusted to say that its `<iframe>` has `allow="tools"`: its own MAIN world and content script are its own.
 * Its parent's content script can see the element, so on the router's request it posts a one-time token into each
 * child frame's window and answers with the token, the element's `allow` and `src`. The child's content script hands
 * the token to the router (listenForToolsDelegation); the browser attests who presented it, so the router learns
 * "this frame, of this origin, sits in that parent's iframe with this allow attribute" without believing either frame
 * about itself.
 */
import type { DelegationOffer } from '../messaging/router-messages';

/** The key of the window message that carries a token into a child frame. */
export const DELEGATION_MESSAGE_KEY = 'webmcpAgentToolsDelegation';

/** At most this many child frames are offered a token per request. */
const MAX_OFFERS = 64;

/** Posts a fresh token into each child frame of `doc` and returns the offers, for the router. */
export function offerToolsDelegation(doc: Document, newToken: () => string): DelegationOffer[] {
  const offers: DelegationOffer[] = [];
  for (const element of Array.from(doc.querySelectorAll('iframe, frame')).slice(0, MAX_OFFERS)) {
    const child = (element as HTMLIFrameElement).contentWindow;
    if (!child) continue;
    const token = newToken();
    const allow = element.tagName === 'IFRAME' ? (element.getAttribute('allow') ?? '') : '';
    offers.push({ token, allow: allow.slice(0, 2_000), src: String((element as HTMLIFrameElement).src ?? '').slice(0, 2_000) });
    // Any origin: the router checks the presenter's attested origin against the allowlist itself.
    child.postMessage({ [DELEGATION_MESSAGE_KEY]: token }, '*');
  }
  return offers;
}
