/**
 * A content script's identity as the browser attests it. Everything a frame says about itself (its URL, its origin)
 * is a claim: a compromised renderer can say it is https://bank.example. The browser's `runtime.onMessage` sender
 * is not a claim, so the router takes a frame's tab, frame, document, origin and URL from it alone.
 */

/** Who sent a content-script message, as the browser attests it. */
export interface FrameSender {
  tabId: number;
  /** The extension frame id (0 = top frame). */
  frameId: number;
  /** The sending document's id (Chrome 106+; Firefox gives none). Changes with every new document in the frame. */
  documentId?: string;
  /** The frame's origin: `sender.origin` where the browser gives it, else derived from `sender.url` ('null' when opaque). */
  origin: string;
  /** The frame's URL when it sent the message (`sender.url`). */
  url: string;
}

/** The fields of `runtime.MessageSender` the attestation reads (Chrome's and Firefox's both fit). */
interface RawMessageSender {
  tab?: { id?: number };
  frameId?: number;
  documentId?: string;
  origin?: string;
  url?: string;
}

/**
 * The attested identity of a content-script sender, or undefined when the sender is not a tab's frame (an extension
 * page, or a sender without a URL). The message itself is never read.
 */
export function attestFrameSender(sender: RawMessageSender): FrameSender | undefined {
  const tabId = sender.tab?.id;
  const { frameId, url } = sender;
  if (typeof tabId !== 'number' || typeof frameId !== 'number' || typeof url !== 'string') return undefined;
  const origin = typeof sender.origin === 'string' && sender.origin !== '' ? sender.origin : originOfUrl(url);
  return { tabId, frameId, origin, url, ...(typeof sender.documentId === 'string' ? { documentId: sender.documentId } : {}) };
}

/** The origin of a URL as the browser serialises it; 'null' for opaque ones (about:blank, data:, sandboxed). */
function originOfUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}
