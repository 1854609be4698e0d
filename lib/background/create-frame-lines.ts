/**
 * The router's request lines to frames' documents (FrameCallLine, lib/messaging/create-request-line.ts): one per
 * document a call runs in, opened on its first call. Each carries its calls' ids, cancels (the tool's signal aborts
 * in the page) and updates, and fails every call pending on it with one error when it closes: when the browser fails
 * a send to the document (it went away, which is how a subframe's document that went is known), when a new document
 * announces itself in the frame, when the tab's top document's Port closes, or when the tab closes. A tab that
 * starts loading another page (tabs.onUpdated) closes nothing by itself: its old document lives, and may still
 * answer, until the new one commits.
 *
 * The wire is the one-shot messages the router already has: bridge/line to the document (an ask's send is answered
 * with its final message, so the browser's failure of that send is the line's news of a document gone) and
 * frame/line from it, given only to the line of the document the browser attests as its sender.
 */
import type { BackgroundToFrameMessage, FrameCallLine } from '../messaging/router-messages';
import { createRequestLine, LineClosedError, type LineMessage, type RequestLine } from '../messaging/create-request-line';
import type { FrameSender } from './attest-frame-sender';

/** One document of a frame, as the router addresses it (documentId: Chrome's; Firefox names none). */
interface FrameDocument {
  tabId: number;
  frameId: number;
  documentId?: string;
}

export interface FrameLines {
  /** The line to one document (opened now if there is none). */
  lineTo(document: FrameDocument): RequestLine<FrameCallLine>;
  /** A frame/line message from `sender` (as the browser attests it): heard only on that document's line. */
  heard(sender: FrameSender, message: unknown): void;
  /** The frame has a new document: the lines to its earlier documents close. */
  frameReplaced(tabId: number, frameId: number): void;
  /** The tab's top document went (documentId: that one, when known): the lines to its documents close. */
  topDocumentLeft(tabId: number, documentId: string | undefined): void;
  /** The tab closed: every line to its documents closes. */
  closeTab(tabId: number): void;
}

/** What closed a line, as the calls pending on it fail. */
const FRAME_REPLACED = 'its frame loaded another document';
const TOP_DOCUMENT_LEFT = "the tab's page went away";
const TAB_CLOSED = 'the tab closed';

/** Creates the lines; `sendToFrame` is the router's (tabs.sendMessage to one document). */
export function createFrameLines(
  sendToFrame: (tabId: number, frameId: number, message: BackgroundToFrameMessage, documentId?: string) => Promise<unknown>,
): FrameLines {
  const lines = new Map<string, { document: FrameDocument; line: RequestLine<FrameCallLine>; hear(message: unknown): void }>();
  const keyOf = (tabId: number, frameId: number, documentId: string | undefined) => `${tabId}:${frameId}:${documentId ?? ''}`;
  // Ids unique across lines and service worker lives: a frame's end may still run an ask of a line from before.
  const life = Date.now().toString(36);
  let asked = 0;

  const open = (document: FrameDocument) => {
    const key = keyOf(document.tabId, document.frameId, document.documentId);
    const listeners: ((message: unknown) => void)[] = [];
    const closers: ((detail?: string) => void)[] = [];
    const hear = (message: unknown) => {
      for (const listener of listeners) listener(message);
    };
    const line = createRequestLine<FrameCallLine>({
      transport: {
        send: (message: LineMessage) => {
          void sendToFrame(document.tabId, document.frameId, { type: 'bridge/line', message }, document.documentId).then(
            (reply) => {
              if (reply) hear(reply);
              // An ask nothing in the document answered (no bridge took it): it did not answer, as a null answer.
              else if (message.line === 'ask') hear({ line: 'answer', id: message.id, answer: null });
            },
            // The browser could not deliver it, or the document went before it answered: the line is gone.
            (error: unknown) => {
              for (const close of closers) close(String((error as Error)?.message ?? error));
            },
          );
        },
        onMessage: (listener) => listeners.push(listener),
        onClose: (listener) => closers.push(listener),
        close: () => {
          if (lines.get(key)?.line === line) lines.delete(key);
        },
      },
      closedError: (detail) => new LineClosedError(detail ?? 'the document went away'),
      nextId: () => `${life}-${++asked}`,
    });
    line.onClose(() => {
      if (lines.get(key)?.line === line) lines.delete(key);
    });
    const entry = { document, line, hear };
    lines.set(key, entry);
    return entry;
  };

  const closeWhere = (matches: (document: FrameDocument) => boolean, why: string) => {
    for (const { document, line } of [...lines.values()]) if (matches(document)) line.close(why);
  };

  return {
    lineTo: (document) => (lines.get(keyOf(document.tabId, document.frameId, document.documentId)) ?? open(document)).line,
    heard(sender, message) {
      // Only the sender's own document's line (or the frame's, where the call named no document): a frame can speak
      // of no call but the ones running in it.
      const line =
        lines.get(keyOf(sender.tabId, sender.frameId, sender.documentId)) ?? lines.get(keyOf(sender.tabId, sender.frameId, undefined));
      line?.hear(message);
    },
    frameReplaced: (tabId, frameId) => closeWhere((d) => d.tabId === tabId && d.frameId === frameId, FRAME_REPLACED),
    topDocumentLeft: (tabId, documentId) =>
      closeWhere(
        (d) => d.tabId === tabId && d.frameId === 0 && (documentId === undefined || d.documentId === documentId),
        TOP_DOCUMENT_LEFT,
      ),
    closeTab: (tabId) => closeWhere((d) => d.tabId === tabId, TAB_CLOSED),
  };
}
