/**
 * The router's answers to a frame's questions about tool continuations (create-continuations.ts): each message is
 * untrusted data, and each answer is about the sender the browser attests, whatever the message claims.
 */
import type { ToolOutput } from '../agent/types';
import type { FrameChannel } from '../messaging/router-messages';
import type { ChannelHandlers } from '../messaging/channel';
import type { FrameSender } from './attest-frame-sender';
import type { Continuations } from './create-continuations';

/** The handlers of `frame/continuation-token`, `frame/resume` and `frame/resume-result`. */
export function continuationQuestions(
  continuations: Continuations,
  runsIn: (callId: string, sender: FrameSender) => boolean,
): ChannelHandlers<FrameChannel, FrameSender> {
  return {
    'frame/continuation-token': (message, sender) => {
      const { callId } = message as { callId?: unknown };
      if (typeof callId !== 'string') return null;
      return continuations.mint(callId, sender, (asking) => runsIn(callId, asking)) ?? null;
    },
    'frame/resume': (message, sender) => continuations.claim((message as { token?: unknown }).token as string, sender),
    'frame/resume-result': (message, sender) => {
      const { token, output } = message as { token?: unknown; output?: unknown };
      if (typeof output !== 'object' || output === null) return false;
      return continuations.deliver(token as string, sender, output as ToolOutput);
    },
  };
}
