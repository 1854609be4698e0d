/**
 * The isolated bridge's part in relaying tools exposed across origins (lib/page-world/exposure-link.ts): what the
 * page's polyfill asks goes to the background, with this frame's place in the tree, and what the background asks of
 * this frame (run an exposed tool, a tool exposed here came or went) goes to the polyfill. Everything the page says
 * is a claim: the background judges it by the frame the browser attests (lib/background/create-exposure-relay.ts).
 */
import type { ConnectorChannel, ExposedCallAnswer, FrameChannel, FrameToBackgroundMessage } from '../messaging/router-messages';
import { type ChannelHandlers, sendMessage } from '../messaging/channel';
import type { PageAsk, PageChannel } from '../webmcp/page-channel';
import { pathOfWindow } from '../webmcp/window-path';

type RelayHandlers = Required<
  Pick<ChannelHandlers<ConnectorChannel>, 'bridge/exposed-changed' | 'bridge/run-exposed' | 'bridge/cancel-exposed'>
>;

/**
 * Serves the polyfill's questions over `page` and returns the handlers for the background's messages to this frame.
 * `send` is runtime.sendMessage.
 */
export function connectExposureRelay(
  win: Window,
  page: PageChannel,
  send: (message: FrameToBackgroundMessage) => Promise<unknown>,
): RelayHandlers {
  const ask = <T extends keyof FrameChannel & string>(type: T, request: FrameChannel[T]['request']) =>
    sendMessage<FrameChannel, T>(send, type, request);
  page.onAsk(['exposed', 'exposed-tools', 'run-exposed', 'cancel-exposed'], async (question: PageAsk) => {
    switch (question.op) {
      case 'exposed': {
        // Where this frame sits, read here rather than in the page's world (the page cannot make it up). A frame
        // that cannot tell (it is being removed) exposes nothing: its tool would be listed under another window.
        const path = pathOfWindow(win);
        await ask('frame/exposed', { tools: path && Array.isArray(question.tools) ? question.tools : [], path: path ?? [] });
        return true;
      }
      case 'exposed-tools':
        return (await ask('frame/exposed-tools', { fromOrigins: Array.isArray(question.fromOrigins) ? question.fromOrigins : [] })) ?? [];
      case 'run-exposed': {
        const { callId, frameId, origin, name, input } = question;
        return ask('frame/run-exposed', {
          callId: String(callId),
          frameId: Number(frameId),
          origin: String(origin),
          name: String(name),
          input: String(input),
        });
      }
      case 'cancel-exposed':
        await ask('frame/cancel-exposed', { callId: String(question.callId) });
        return true;
      default:
        throw new Error('unknown question');
    }
  });
  /** This frame's calls for other frames, by the background's call id: the page channel's request id each runs under. */
  const running = new Map<string, number>();
  return {
    'bridge/exposed-changed': () => {
      void page.request('exposed-changed').catch(() => undefined);
      return undefined;
    },
    'bridge/run-exposed': async (message): Promise<ExposedCallAnswer> => {
      const { id, result } = page.request('run-exposed', {
        name: String(message.name),
        input: String(message.input),
        caller: String(message.caller),
      });
      running.set(String(message.callId), id);
      try {
        const value = await result;
        return { ok: true, value: typeof value === 'string' ? value : null };
      } catch (error) {
        const { name, message: text } = error as Error;
        return { ok: false, name: String(name), message: String(text) };
      } finally {
        running.delete(String(message.callId));
      }
    },
    'bridge/cancel-exposed': (message) => {
      const id = running.get(String(message.callId));
      if (id !== undefined) page.cancel(id);
      return undefined;
    },
  };
}
