/**
 * What frames tell and ask the background (runtime.onMessage from content scripts): each message is taken with the
 * frame's identity as the browser attests it (tab, frame, document, origin, URL), never as the frame says it.
 * Only the bridge says `frame/ready` and `frame/tools` (the stub every page gets does not): such a top document gets
 * its Port (create-document-ports.ts).
 */
import { attestFrameSender, type FrameSender } from './attest-frame-sender';
import type { ToolRouter } from './create-tool-router';
import { isHostSender } from '../messaging/is-host-sender';
import type { RuntimeMessageEvent } from './runtime-message-event';

interface FrameReportsDeps {
  onMessage: RuntimeMessageEvent;
  /** The extension's id and origin: its own pages are not frames (setUpHostRequests takes them). */
  extension: { id: string; origin: string };
  toolRouter: Pick<ToolRouter, 'answerFrameQuestion' | 'handleFrameMessage'>;
  documentPorts: { seen(frame: FrameSender): void };
}

/** Listens for frames' messages; the router answers questions and takes notices. */
export function setUpFrameReports(deps: FrameReportsDeps): void {
  deps.onMessage.addListener((message, sender, sendResponse) => {
    if (isHostSender(sender, deps.extension.id, deps.extension.origin)) return false;
    const frame = attestFrameSender(sender);
    if (!frame) return false;
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'frame/ready' || type === 'frame/tools') deps.documentPorts.seen(frame);
    const answer = deps.toolRouter.answerFrameQuestion(message, frame);
    if (answer) {
      void answer.then(sendResponse, () => sendResponse(false));
      return true;
    }
    deps.toolRouter.handleFrameMessage(message, frame);
    return false;
  });
}
