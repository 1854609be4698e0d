/**
 * The frame's end of its document's call line to the router (FrameCallLine, lib/messaging/create-request-line.ts;
 * the router's end is lib/background/create-frame-lines.ts). The router's bridge/line messages come in through
 * tabs.sendMessage: an ask is answered through that same message once it ends (so the browser fails the router's
 * send when this document goes first), and everything else this side says (a call's updates) goes out as frame/line.
 *
 * A cancel reaches the call as its aborted signal. When the background's line is gone (the background's Port to this
 * document closed: its service worker stopped) every running call is aborted, for no one waits for its answer any
 * more, and a fresh line serves what the background asks next.
 */
import type { FrameCallLine, FrameCallResult, FrameCallRequest, FrameCallUpdate } from '../messaging/router-messages';
import { type AnswerContext, createRequestLine, type LineMessage } from '../messaging/create-request-line';

export interface FrameCallServer {
  /** A bridge/line message from the router: for an ask, resolves with its final message once it ends; else null. */
  receive(message: unknown): Promise<LineMessage | null>;
  /** The background's end is gone: running calls are aborted, and the next asks are served on a fresh line. */
  dropped(detail?: string): void;
}

/** Serves `call` on the line; `tell` sends a line message to the router (frame/line). */
export function serveFrameCalls(
  call: (request: FrameCallRequest, context: AnswerContext<FrameCallUpdate>) => Promise<FrameCallResult>,
  tell: (message: LineMessage) => void,
): FrameCallServer {
  const open = () => {
    /** Where each ask's final message goes: back through the message that asked it. */
    const answers = new Map<string | number, (message: LineMessage) => void>();
    let hear: (message: unknown) => void = () => {};
    let shut: (detail?: string) => void = () => {};
    createRequestLine<Record<never, never>, FrameCallLine>({
      transport: {
        send: (message) => {
          if (message.line === 'answer' || message.line === 'error') {
            const respond = answers.get(message.id);
            if (respond) {
              answers.delete(message.id);
              return respond(message);
            }
          }
          tell(message);
        },
        onMessage: (listener) => {
          hear = listener;
        },
        onClose: (listener) => {
          shut = listener;
        },
      },
      handlers: { 'bridge/call': (request, context) => call(request, context) },
    });
    return { answers, hear: (message: unknown) => hear(message), shut: (detail?: string) => shut(detail) };
  };
  let current = open();
  return {
    receive(message) {
      const line = current;
      const ask = message as { line?: unknown; id?: unknown } | null;
      const id = ask?.id;
      if (ask?.line !== 'ask' || (typeof id !== 'string' && typeof id !== 'number') || line.answers.has(id)) {
        line.hear(message);
        return Promise.resolve(null);
      }
      return new Promise((resolve) => {
        line.answers.set(id, resolve);
        line.hear(message);
      });
    },
    dropped(detail) {
      const gone = current;
      current = open();
      gone.shut(detail ?? 'the background went away');
    },
  };
}
