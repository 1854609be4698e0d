/**
 * The isolated world's answers to the page's world's continuation questions (page-channel.ts `PageAsk`,
 * tool-continuations.ts): each is passed on to the background, which decides about the frame the browser attests
 * (lib/background/create-continuations.ts). What the page sends is untrusted data: bounded and type-checked here,
 * and a result is read as any tool result (normalised, capped) before it leaves the frame.
 */
import type { FrameChannel } from '../messaging/router-messages';
import type { ChannelMessage } from '../messaging/channel';
import { sendMessage } from '../messaging/channel';
import { capToolOutput } from '../agent/cap-tool-output';
import { normalizeToolResult } from './normalize-tool-result';
import type { PageAsk } from '../webmcp/page-channel';
import { toolErrorOutput } from '../agent/tool-error-output';

/** Answers one question, with `send` reaching the background (runtime.sendMessage). */
export function answerContinuationAsks(
  send: (message: ChannelMessage<FrameChannel>) => Promise<unknown>,
): (ask: PageAsk) => Promise<unknown> {
  const bounded = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');
  return async (ask) => {
    if (ask.op === 'token')
      return sendMessage<FrameChannel, 'frame/continuation-token'>(send, 'frame/continuation-token', { callId: bounded(ask.callId) });
    if (ask.op === 'resume')
      return (await sendMessage<FrameChannel, 'frame/resume'>(send, 'frame/resume', { token: bounded(ask.token) })) === true;
    if (ask.op === 'resumed') {
      const output =
        ask.ok === true
          ? capToolOutput(normalizeToolResult(ask.value))
          : toolErrorOutput(
              'tool_threw',
              `Tool was executed but the invocation failed: ${String(ask.error?.message ?? '').slice(0, 2_000)}`,
            );
      return (
        (await sendMessage<FrameChannel, 'frame/resume-result'>(send, 'frame/resume-result', { token: bounded(ask.token), output })) ===
        true
      );
    }
    throw new Error('unknown question');
  };
}
