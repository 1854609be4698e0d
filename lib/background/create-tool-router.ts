/**
 * The background's tool router: takes what frames report (into the tab registry, create-tab-registry.ts, through
 * frame-message-handlers.ts), routes calls to the owning frame one at a time per tab (create-call-queue.ts,
 * run-tool-call.ts) on each document's request line (create-frame-lines.ts), and follows a call that navigated to
 * the next document (follow-navigation.ts). It answers the agent host's line (router-host-handlers.ts), and is
 * itself the RouterClient of an agent host living in the background (Firefox).
 */
import type { LineHandlers } from '../messaging/create-request-line';
import type { BackgroundToFrameMessage, FrameChannel, RouterLine } from '../messaging/router-messages';
import { type ChannelHandlers, handleMessage } from '../messaging/channel';
import { DEFAULT_MAX_RESULT_CHARS } from '../agent/cap-tool-output';
import type { FrameSender } from './attest-frame-sender';
import { continuationQuestions } from './continuation-questions';
import { createCallQueue } from './create-call-queue';
import { createContinuations } from './create-continuations';
import { createExposureRelay } from './create-exposure-relay';
import { createFrameDocuments } from './create-frame-documents';
import { createFrameLines } from './create-frame-lines';
import { createPageBudget } from './create-page-budget';
import { createTabRegistry } from './create-tab-registry';
import { createBridgeLoadQueue } from './create-bridge-load-queue';
import { createMissingBridgeLoader } from './load-missing-bridges';
import { createNavigationFollower } from './follow-navigation';
import { frameMessageHandlers, offerFrameReport } from './frame-message-handlers';
import { PAGE_LIMITS } from './page-limits';
import { routerHostHandlers } from './router-host-handlers';
import { type RunningCall, runToolCall } from './run-tool-call';
import type { RouterClient } from '../messaging/router-client';
import type { ToolRouterPorts } from './tool-router-ports';

export type { FrameSender };

export interface ToolRouter extends RouterClient {
  /** Feed a message from a content script. Returns true when it was a bridge message. */
  handleFrameMessage(message: unknown, sender: FrameSender): boolean;
  /**
   * Answer a content script's question about its own frame (the sender the browser attests); undefined when the
   * message is no question: `frame/may-use-tools`, and a tool continuation's `frame/continuation-token`,
   * `frame/resume` and `frame/resume-result`.
   */
  answerFrameQuestion(message: unknown, sender: FrameSender): Promise<unknown> | undefined;
  /** What the router answers on the agent host's line (router-host-handlers.ts; set-up-router-lines.ts holds the line). */
  hostHandlers(): LineHandlers<RouterLine>;
  /**
   * A tab started loading a new top document (tabs.onUpdated, status loading): what its old document's frames
   * offered is forgotten. A frame's own bridge announcing a new document (frame/ready) forgets only that frame's.
   */
  tabNavigating(tabId: number): Promise<void>;
  /**
   * A tab finished loading a document (tabs.onUpdated, status complete). A watched tab's frames get the whole
   * bridge, so the panel knows the new page even when it offers no tools (pages with tools load it themselves).
   */
  tabLoaded(tabId: number): Promise<void>;
  /** The tab closed. */
  forgetTab(tabId: number): Promise<void>;
  /**
   * The Port a tab's top document held (DOCUMENT_PORT_NAME) closed: a navigation, a reload, the back/forward cache,
   * the tab closing, or a renderer that crashed. Only the last leaves the tab crashed (its snapshot says so), and
   * only when the browser says so and no newer top document has announced itself.
   */
  topDocumentLeft(tabId: number, documentId?: string): Promise<void>;
}

/** Creates the router. */
export function createToolRouter(ports: ToolRouterPorts): ToolRouter {
  const callTimeoutMs = ports.callTimeoutMs ?? 30_000;
  const maxResultChars = ports.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  // What a page may make the router do, per tab and per site, counted before anything it sent is read
  // (create-page-budget.ts); what it met is told to the registry once a while, for the panel's notice.
  const budget = createPageBudget(ports.pageBudget, (tabId, kind) => void registry.noteLimit(tabId, kind).catch(() => undefined));
  const loadMissingBridges = createMissingBridgeLoader({
    ...(ports.findFrames ? { findFrames: ports.findFrames } : {}),
    ...(ports.loadConnector ? { loadConnector: ports.loadConnector } : {}),
    admitFrames: (tabId, frameIds) => budget.admitFrames(tabId, frameIds),
  });
  const registry = createTabRegistry({ ...ports, loadMissingBridges });
  const { load, snapshot, snapshotOf, watch } = registry;
  // Tools exposed across origins, for the polyfill (issue 23 item 4): relayed between frames of one tab.
  const exposure = createExposureRelay({
    store: ports.store,
    mayUseTools: (sender) => registry.mayUseTools(sender),
    allowedFrames: (tabId) => registry.allowedFrames(tabId),
    sendToFrame: (tabId, frameId, message, documentId) =>
      ports.sendToFrame(tabId, frameId, message as BackgroundToFrameMessage, documentId),
  });
  const navigation = createNavigationFollower({
    navigationTimeoutMs: ports.navigationTimeoutMs ?? 10_000,
    maxResultChars,
    ...(ports.goneEvidenceMs !== undefined ? { goneEvidenceMs: ports.goneEvidenceMs } : {}),
  });
  const continuations = createContinuations(ports.randomToken);
  const documents = createFrameDocuments();
  const lines = createFrameLines(ports.sendToFrame);
  const maxReportBytes = ports.pageBudget?.limits?.maxReportBytes ?? PAGE_LIMITS.maxReportBytes;
  /** Tabs that load pages faster than their budget: their next pages get no bridge until they slow down. */
  const loadsHeld = new Set<number>();
  const bridgeLoads = createBridgeLoadQueue((tabId, frames) => ports.loadConnector?.(tabId, frames) ?? Promise.resolve());
  /** Running calls: the frame (and document) each runs in, the only one that may ask about it. */
  const running = new Map<string, RunningCall>();
  let callCounter = 0;
  const checkCrashed = (tabId: number, documentId: string | undefined) =>
    documents.checkCrashed(
      tabId,
      documentId,
      () => ports.tabCrashed?.(tabId) ?? Promise.resolve(false),
      () => registry.topFrameCrashed(tabId),
    );
  const queue = createCallQueue((tabId, call, options) =>
    runToolCall(
      {
        ports,
        registry,
        navigation,
        continuations,
        budget,
        lines,
        running,
        callTimeoutMs,
        maxResultChars,
        maxReportBytes,
        checkCrashed,
        nextCallId: () => `${Date.now().toString(36)}-${++callCounter}`,
      },
      tabId,
      call,
      options,
    ),
  );
  const frameHandlers = frameMessageHandlers({
    bridgeLoads,
    registry,
    budget,
    navigation,
    exposure,
    documents,
    lines,
    loadsHeld,
    maxReportBytes,
  });

  /** What a content script asks about its own frame: answered about the attested sender, whatever the message says. */
  const frameQuestions: ChannelHandlers<FrameChannel, FrameSender> = {
    'frame/may-use-tools': (_message, sender) => registry.frameAsksMayUseTools(sender),
    // Answered with the frame's wait before its next report.
    'frame/tools': (message, sender) =>
      Promise.resolve(offerFrameReport({ registry, budget, navigation, documents, maxReportBytes }, message.report, sender)),
    ...continuationQuestions(continuations, (callId, sender) => {
      const call = running.get(callId);
      return (
        call?.frameKey === `${sender.tabId}:${sender.frameId}` &&
        (call.documentId === undefined || sender.documentId === undefined || call.documentId === sender.documentId)
      );
    }),
    'frame/exposed-tools': (message, sender) => exposure.list(sender, message.fromOrigins),
    'frame/run-exposed': (message, sender) => exposure.run(sender, message),
  };

  const router: ToolRouter = {
    async getTools(tabId) {
      const state = await load(tabId);
      watch(tabId, state);
      return snapshotOf(tabId, state);
    },
    callTool: (tabId, call, options = {}) => queue.callTool(tabId, call, options),
    subscribe(listener) {
      registry.listeners.add(listener);
      return () => registry.listeners.delete(listener);
    },
    handleFrameMessage(message, sender) {
      // Counted before anything else is read of it: a tab over its messages or frames is not heard.
      if (!isOneOf(frameHandlers, message)) return false;
      if (!budget.admitMessage(sender)) return true;
      return handleMessage(frameHandlers, message, sender) !== undefined;
    },
    answerFrameQuestion(message, sender) {
      if (!isOneOf(frameQuestions, message)) return undefined;
      if (!budget.admitMessage(sender)) return Promise.resolve(undefined);
      return handleMessage(frameQuestions, message, sender);
    },
    hostHandlers: () => hostHandlers,
    tabNavigating(tabId) {
      // Each page load costs the bridge's injection into every frame: a tab that loads pages in a loop gets it at
      // its budget's pace (page-limits.ts), the pages in between none.
      if (budget.admitNavigation(tabId)) loadsHeld.delete(tabId);
      else loadsHeld.add(tabId);
      // The new page's frames are counted afresh (its top's frame/ready does so too, for a navigation unseen here).
      budget.newTopDocument(tabId);
      return registry.newTopDocument(tabId);
    },
    async tabLoaded(tabId) {
      if (loadsHeld.has(tabId)) return;
      if (await registry.isWatched(tabId)) await loadMissingBridges(tabId).catch(() => undefined);
    },
    async forgetTab(tabId) {
      budget.forgetTab(tabId);
      loadsHeld.delete(tabId);
      bridgeLoads.forgetTab(tabId);
      queue.forgetTab(tabId);
      // Calls still pending in the tab fail now, with one error.
      lines.closeTab(tabId);
      navigation.forgetTab(tabId);
      continuations.forgetTab(tabId);
      exposure.forgetTab(tabId);
      documents.forgetTab(tabId);
      await registry.forget(tabId);
    },
    topDocumentLeft(tabId, documentId) {
      // A call pending in that document fails now (the browser may not fail its message for a renderer that crashed).
      lines.topDocumentLeft(tabId, documentId);
      return checkCrashed(tabId, documentId);
    },
  };
  const hostHandlers = routerHostHandlers({ router, snapshot });
  return router;
}

/** Whether a message from anywhere is one these handlers take (its type only). */
function isOneOf(handlers: object, message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && Object.hasOwn(handlers, type);
}
