/**
 * For tests and benches that play a frame by hand in the router's `sendToFrame` (tabs.sendMessage cannot run in
 * Node): the call a router's message carries, on its document's call line (a bridge/line ask of bridge/call), and
 * the reply that answers it as the frame's end of the line does (lib/isolated-world/serve-frame-calls.ts).
 */
import type { BackgroundToFrameMessage, FrameCallRequest } from '../messaging/router-messages';
import type { LineMessage } from '../messaging/create-request-line';

/** The call in `message`, with `answer` to build the frame's reply to it; undefined when it carries none. */
export function frameCallIn(message: BackgroundToFrameMessage): (FrameCallRequest & { answer(result: unknown): LineMessage }) | undefined {
  if (message.type !== 'bridge/line') return undefined;
  const line = message.message;
  if (line.line !== 'ask' || line.type !== 'bridge/call') return undefined;
  return { ...(line.request as FrameCallRequest), answer: (result) => ({ line: 'answer', id: line.id, answer: result ?? null }) };
}
