/**
 * What the router does with what content scripts say (create-tool-router.ts): each field is untrusted, and the frame
 * is who the browser says sent it (`sender`). The messages were already counted by the page budget; a report is
 * measured, checked and copied only once the budget admits it, and exposed tools only once they weigh little enough.
 */
import type { FrameChannel } from '../messaging/router-messages';
import type { ChannelHandlers } from '../messaging/channel';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import type { FrameSender } from './attest-frame-sender';
import { attest, isFrameReport, trimToTabCaps } from './attest-frame-report';
import type { ExposureRelay } from './create-exposure-relay';
import type { FrameDocuments } from './create-frame-documents';
import type { FrameLines } from './create-frame-lines';
import type { PageBudget } from './create-page-budget';
import type { TabRegistry } from './create-tab-registry';
import type { NavigationFollower } from './follow-navigation';
import { dropOversizedTools, reportSize } from './limit-report';
import { MAX_EXPOSED_BYTES } from './page-limits';
import type { BridgeLoadQueue } from './create-bridge-load-queue';

/** The router's parts these messages reach. */
interface FrameMessageDeps {
  /** Where a frame's ask for its bridge goes (frame/load): loaded with the tab's others that ask meanwhile. */
  bridgeLoads: Pick<BridgeLoadQueue, 'request'>;
  registry: Pick<TabRegistry, 'documentStarted' | 'frameReported' | 'presentDelegationToken' | 'noteLimit'>;
  budget: Pick<PageBudget, 'newTopDocument' | 'offerReport'>;
  navigation: Pick<NavigationFollower, 'documentStarted' | 'reported'>;
  exposure: Pick<ExposureRelay, 'forgetFrame' | 'caughtUp' | 'publish' | 'cancel'>;
  documents: FrameDocuments;
  lines: Pick<FrameLines, 'heard' | 'frameReplaced'>;
  /** Tabs that load pages faster than their budget: their next pages get no bridge until they slow down. */
  loadsHeld: ReadonlySet<number>;
  maxReportBytes: number;
  /** The most bytes of one frame's exposed tools (default MAX_EXPOSED_BYTES). */
  maxExposedBytes?: number;
}

/**
 * A frame's report (frame/tools), offered to the page budget. Gives how long the frame should wait before its next
 * report (create-page-budget.ts), undefined for a report of a document the frame has since replaced.
 */
export function offerFrameReport(
  deps: Pick<FrameMessageDeps, 'registry' | 'budget' | 'navigation' | 'documents' | 'maxReportBytes'>,
  claimed: unknown,
  sender: FrameSender,
): { nextReportInMs: number } | undefined {
  const { registry, navigation, documents } = deps;
  // A late report of the document this frame has since replaced describes tools that no longer exist.
  if (documents.replaced(sender)) return undefined;
  // Counted first; measured (bounded), checked and copied only once the tab's and the site's budgets admit it.
  // The answer tells the frame when to report again, so that what the budget would hold is not even sent.
  const nextReportInMs = deps.budget.offerReport(sender, {
    measure: () => reportSize(claimed, deps.maxReportBytes),
    take: () => {
      // Held by the budget, it may have been overtaken by the frame's next document meanwhile.
      if (documents.replaced(sender) || !isFrameReport(claimed)) return;
      const report = trimToTabCaps(dropOversizedTools(attest(claimed, sender), claimed));
      void registry
        .frameReported(sender.tabId, sender.frameId, report)
        .then(() => navigation.reported(sender.tabId, sender.frameId, report));
    },
  });
  return { nextReportInMs };
}

/** The handlers of every content script's message that is no question (frame questions: create-tool-router.ts). */
export function frameMessageHandlers(deps: FrameMessageDeps): ChannelHandlers<FrameChannel, FrameSender> {
  const { registry, budget, navigation, exposure, documents, lines } = deps;
  const maxExposedBytes = deps.maxExposedBytes ?? MAX_EXPOSED_BYTES;
  return {
    'frame/ready': (message, sender) => {
      if (sender.frameId === 0) budget.newTopDocument(sender.tabId);
      // A bridge in a new document: calls still pending in the frame's earlier one fail (its line closes).
      lines.frameReplaced(sender.tabId, sender.frameId);
      const needsDelegation = message.needsDelegation === true;
      const asked = documents.started(sender, needsDelegation);
      navigation.documentStarted(`${sender.tabId}:${sender.frameId}`);
      void exposure.forgetFrame(sender.tabId, sender.frameId).then(() => exposure.caughtUp(sender, asked));
      void registry.documentStarted(sender.tabId, sender.frameId, sender.origin, needsDelegation);
    },
    'frame/load': (message, sender) => {
      // A tab that loads pages faster than its budget gets no bridge into them until it slows down.
      if (deps.loadsHeld.has(sender.tabId)) return;
      // When the document asked: what is exposed to it meanwhile, it hears of once its bridge is ready. A bridge that
      // a delegation check or a watched tab loaded before the document asked has announced it already, and while the
      // frame's tools policy is decided it is told of no change (allowedFrames): it catches up from now instead.
      // Native WebMCP tells its documents itself.
      const readyBefore = documents.loadAsked(sender);
      if (readyBefore !== undefined && message.native !== true) void exposure.caughtUp(sender, readyBefore);
      // The frame shows WebMCP (stub.ts). Whatever it claims, it only gets the extension's own scripts, and only
      // into the document the browser says sent this.
      deps.bridgeLoads.request(sender.tabId, sender);
    },
    // The same as the question (offerFrameReport), for a caller that does not wait for its answer.
    'frame/tools': (message, sender) => void offerFrameReport(deps, message.report, sender),
    'frame/exposed': (message, sender) => {
      // Weighed (up to the limit) before anything of it is read: one too heavy is refused whole, and the frame then
      // exposes nothing (what it exposed before is no longer what its page says).
      if (jsonSizeUpTo(message, maxExposedBytes) > maxExposedBytes) {
        void registry.noteLimit(sender.tabId, 'report-size').catch(() => undefined);
        void exposure.publish(sender, [], []);
        return;
      }
      void exposure.publish(sender, message.tools, message.path);
    },
    'frame/cancel-exposed': (message, sender) => {
      exposure.cancel(sender, message.callId);
    },
    'frame/delegation-token': (message, sender) => {
      registry.presentDelegationToken(sender, message.token);
    },
    'frame/line': (message, sender) => {
      // Only the sender's own document's calls hear it (create-frame-lines.ts).
      lines.heard(sender, message.message);
    },
  };
}
