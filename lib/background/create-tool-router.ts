/**
 * The background's tool router: takes what frames report (into the tab registry, create-tab-registry.ts), routes
 * calls to the owning frame one at a time per tab, and follows a call that navigated to the next document
 * (follow-navigation.ts). It answers the agent host's requests, and is itself the RouterClient of an agent host
 * living in the background (Firefox).
 */
import type { ToolCall, ToolOutput } from '../agent/types';
import type { BackgroundToFrameMessage, ConnectorChannel, FrameChannel, HostCallAnswer, RouterChannel } from '../messaging/router-messages';
import { FORM_WAITS_PROMPT } from '../messaging/router-messages';
import { type ChannelHandlers, handleMessage, sendMessage } from '../messaging/channel';
import { CAP_NOTE_ROOM, capToolOutput, DEFAULT_MAX_RESULT_CHARS, MAX_RAW_RESULT_CHARS, resultRefused } from '../agent/cap-tool-output';
import { cancelledBeforeStart, cancelledInPage, toolErrorOutput } from '../agent/tool-error-output';
import type { FrameSender } from './attest-frame-sender';
import { continuationQuestions } from './continuation-questions';
import { createContinuations } from './create-continuations';
import { attest, isFrameReport, trimToTabCaps } from './attest-frame-report';
import { createPageBudget } from './create-page-budget';
import { MAX_PENDING_CALLS_PER_TAB, PAGE_LIMITS } from './page-limits';
import { dropOversizedTools, reportSize } from './limit-report';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import { createTabRegistry } from './create-tab-registry';
import { continuedOutput, unfinishedOutput } from './continued-output';
import { createExposureRelay } from './create-exposure-relay';
import { readExpectedTool, toolChange } from '../messaging/expected-tool';
import { createNavigationFollower } from './follow-navigation';
import type { RouterClient, ToolCallOptions } from '../messaging/router-client';
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
  /** Feed a message from the agent host; resolves with the answer, or undefined when it is not a bridge message. */
  handleHostMessage(message: unknown): Promise<unknown> | undefined;
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
  const registry = createTabRegistry(ports);
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
  const queues = new Map<number, Promise<unknown>>();
  const continuations = createContinuations(ports.randomToken);
  /** Running calls: the frame (and document) each runs in (only it may report on the call) and who hears its parked state. */
  const callStates = new Map<
    string,
    {
      frameKey: string;
      documentId?: string;
      /** The tool is a declarative form that waits for the person's submit (what its frame listed). */
      waitsForPerson: boolean;
      onState?: (state: { state: 'awaiting-confirmation'; prompt: string }) => void;
    }
  >();
  /** The document each frame announced last (frame/ready), so a late report of the document it replaced is ignored. */
  const documents = new Map<string, string>();
  // What a page may make the router do, per tab and per site, counted before anything it sent is read
  // (create-page-budget.ts); what it met is told to the registry once a while, for the panel's notice.
  const budget = createPageBudget(ports.pageBudget, (tabId, kind) => void registry.noteLimit(tabId, kind).catch(() => undefined));
  const maxReportBytes = ports.pageBudget?.limits?.maxReportBytes ?? PAGE_LIMITS.maxReportBytes;
  /** Tabs that load pages faster than their budget: their next pages get no bridge until they slow down. */
  const loadsHeld = new Set<number>();
  /** Calls waiting or running in each tab (MAX_PENDING_CALLS_PER_TAB). */
  const pendingCalls = new Map<number, number>();
  const hostCalls = new Map<string, AbortController>();
  let callCounter = 0;

  const runCall = async (tabId: number, call: ToolCall, options: ToolCallOptions): Promise<ToolOutput> => {
    if (options.signal?.aborted) return cancelledBeforeStart();
    const snap = await snapshot(tabId);
    const entry = snap.tools.find((t) => t.name === call.name);
    const changed = options.expect ? toolChange(call.name, options.expect, entry, call.input) : undefined;
    if (changed) return toolErrorOutput('tool_changed', changed);
    if (!entry) {
      const names = snap.tools.map((t) => t.name).join(', ') || 'none';
      return toolErrorOutput('unknown_tool', `No tool named "${call.name}" on this page. Available tools: ${names}.`);
    }
    const callId = `${Date.now().toString(36)}-${++callCounter}`;
    const frameKey = `${tabId}:${entry.frameId}`;
    const generation = navigation.generation(frameKey);
    callStates.set(callId, {
      frameKey,
      waitsForPerson: entry.declarative === true && entry.needsConfirmation === true,
      ...(entry.documentId ? { documentId: entry.documentId } : {}),
      ...(options.onState ? { onState: options.onState } : {}),
    });
    // A call that navigated returns what the next document says of itself, or, when its tool asked for a
    // continuation token, the result the next document resumes it with (create-continuations.ts).
    const followed = async (): Promise<ToolOutput> => {
      const next = navigation.waitForReport(tabId, entry.frameId, generation);
      if (!continuations.has(callId)) return navigation.navigatedOutput(await next, call.name);
      const waitMs = options.timeoutMs ?? ports.continuationTimeoutMs ?? callTimeoutMs;
      const continued = await continuations.wait(callId, waitMs);
      if (continued) return continuedOutput(continued.output, continued.url, call.name, maxResultChars + CAP_NOTE_ROOM);
      return unfinishedOutput(call.name, waitMs, navigation.navigatedOutput(await next, call.name));
    };
    // The frame that owns the tool, and only the document that registered it (Chrome).
    const toFrame = (message: BackgroundToFrameMessage) => ports.sendToFrame(tabId, entry.frameId, message, entry.documentId);
    const cancelled = new Promise<ToolOutput>((resolve) => {
      const onAbort = () => {
        void sendMessage<ConnectorChannel, 'bridge/cancel'>(toFrame, 'bridge/cancel', { callId }).catch(() => undefined);
        resolve(cancelledInPage(call.name));
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const sent = sendMessage<ConnectorChannel, 'bridge/call'>(toFrame, 'bridge/call', {
      callId,
      name: entry.originalName,
      input: call.input,
      timeoutMs: options.timeoutMs ?? callTimeoutMs,
      maxResultChars,
    }).then(
      async (result): Promise<ToolOutput> => {
        if (result?.kind === 'navigated') return followed();
        if (result?.kind !== 'output') {
          return toolErrorOutput('frame_gone', `The frame that owned "${call.name}" did not answer (it may have been reloaded).`);
        }
        // The frame caps its results, but a compromised one could send anything: a huge one is refused unread.
        if (jsonSizeUpTo(result.output, MAX_RAW_RESULT_CHARS) === Number.POSITIVE_INFINITY) return resultRefused(call.name);
        const owner = (await load(tabId)).frames[entry.frameId];
        const claimed = result.report;
        if (claimed && owner && reportSize(claimed, maxReportBytes) <= maxReportBytes && isFrameReport(claimed)) {
          // A report the budget holds from before the call is older than this one: it must not overwrite it later.
          budget.dropHeld({ tabId, frameId: entry.frameId });
          const report = trimToTabCaps(dropOversizedTools(attest(claimed, { tabId, ...owner, frameId: entry.frameId }), claimed));
          // Most calls change nothing: then nothing is written, badged or pushed.
          const { at: _storedAt, ...stored } = owner;
          if (JSON.stringify(report) !== JSON.stringify(stored)) await registry.frameReported(tabId, entry.frameId, report);
        }
        // The cap holds here too.
        return capToolOutput(result.output, maxResultChars + CAP_NOTE_ROOM);
      },
      async (error): Promise<ToolOutput> => {
        if (await navigation.navigatedAway(tabId, entry.frameId, callId, generation)) return followed();
        await (entry.frameId === 0 ? registry.topFrameGone(tabId) : registry.frameGone(tabId, entry.frameId));
        // A call can be the first to find a page that crashed (its Port's news lost with a stopped service worker).
        if (entry.frameId === 0) await checkCrashed(tabId, entry.documentId);
        return toolErrorOutput(
          'frame_gone',
          `The frame that owned "${call.name}" is gone (${String((error as Error)?.message ?? error)}).`,
        );
      },
    );
    try {
      return await Promise.race([sent, cancelled]);
    } finally {
      callStates.delete(callId);
      navigation.endCall(callId);
      // A resumeTool callback still running on the next page answers a call that is over: nothing of the run acts
      // on the page any more, so its signal aborts (and whatever it returns is refused: create-continuations.ts).
      const resuming = continuations.end(callId);
      if (resuming) {
        void sendMessage<ConnectorChannel, 'bridge/cancel-resume'>(
          (message) => ports.sendToFrame(resuming.tabId, resuming.frameId, message, resuming.documentId),
          'bridge/cancel-resume',
          { token: resuming.token },
        ).catch(() => undefined);
      }
    }
  };

  /**
   * The tab's top document (this one, when known) went away: if no newer top document announced itself and the
   * browser says the page is not loaded, the tab crashed.
   */
  const checkCrashed = async (tabId: number, documentId: string | undefined) => {
    const current = documents.get(`${tabId}:0`);
    if (documentId !== undefined && current !== undefined && current !== documentId) return;
    if (!(await ports.tabCrashed?.(tabId).catch(() => false))) return;
    // Asked across an await: a document that started meanwhile is a page again.
    if (documents.get(`${tabId}:0`) !== current) return;
    await registry.topFrameCrashed(tabId);
  };

  /** When each document asked for its bridge (frame/load), until its bridge announces it (frame/ready). */
  const loadAsked = new Map<string, number>();
  const documentKey = (sender: FrameSender) => `${sender.tabId}:${sender.frameId}:${sender.documentId ?? ''}`;
  /**
   * A frame's report (frame/tools), offered to the page budget; gives how long the frame should wait before its next
   * report, undefined for a report of a replaced document.
   */
  const offerFrameReport = (claimed: unknown, sender: FrameSender): { nextReportInMs: number } | undefined => {
    const frameKey = `${sender.tabId}:${sender.frameId}`;
    // A late report of the document this frame has since replaced describes tools that no longer exist.
    const replaced = () => {
      const current = documents.get(frameKey);
      return current !== undefined && sender.documentId !== undefined && sender.documentId !== current;
    };
    if (replaced()) return undefined;
    // Counted first; measured (bounded), checked and copied only once the tab's and the site's budgets admit it.
    // The answer tells the frame when to report again, so that what the budget would hold is not even sent.
    const nextReportInMs = budget.offerReport(sender, {
      measure: () => reportSize(claimed, maxReportBytes),
      take: () => {
        // Held by the budget, it may have been overtaken by the frame's next document meanwhile.
        if (replaced() || !isFrameReport(claimed)) return;
        const report = trimToTabCaps(dropOversizedTools(attest(claimed, sender), claimed));
        void registry
          .frameReported(sender.tabId, sender.frameId, report)
          .then(() => navigation.reported(sender.tabId, sender.frameId, report));
      },
    });
    return { nextReportInMs };
  };
  /** What content scripts say: each field is untrusted, and the frame is who the browser says sent it. */

  const frameHandlers: ChannelHandlers<FrameChannel, FrameSender> = {
    'frame/ready': (message, sender) => {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      if (sender.frameId === 0) budget.newTopDocument(sender.tabId);
      if (sender.documentId) documents.set(frameKey, sender.documentId);
      else documents.delete(frameKey);
      navigation.documentStarted(frameKey);
      const asked = loadAsked.get(documentKey(sender));
      loadAsked.delete(documentKey(sender));
      void exposure.forgetFrame(sender.tabId, sender.frameId).then(() => exposure.caughtUp(sender, asked));
      void registry.documentStarted(sender.tabId, sender.frameId, sender.origin, message.needsDelegation === true);
    },
    'frame/load': (_message, sender) => {
      // When the document asked: what is exposed to it meanwhile, it hears of once its bridge is ready.
      if (loadAsked.size > 500) loadAsked.clear();
      // A tab that loads pages faster than its budget gets no bridge into them until it slows down.
      if (loadsHeld.has(sender.tabId)) return;
      loadAsked.set(documentKey(sender), Date.now());
      // The frame shows WebMCP (stub.ts). Whatever it claims, it only gets the extension's own scripts, and only
      // into the document the browser says sent this.
      void ports.loadConnector?.(sender.tabId, sender).catch(() => undefined);
    },
    // The same without its answer (a caller that does not wait for one).
    'frame/tools': (message, sender) => void offerFrameReport(message.report, sender),
    'frame/exposed': (message, sender) => {
      void exposure.publish(sender, message.tools, message.path);
    },
    'frame/cancel-exposed': (message, sender) => {
      exposure.cancel(sender, message.callId);
    },
    'frame/delegation-token': (message, sender) => {
      registry.presentDelegationToken(sender, message.token);
    },
    'frame/call-state': (message, sender) => {
      const { callId } = message as { callId?: unknown };
      // Only the frame running the call may say it waits, only a form's call that waits for the person does, and
      // the words are the background's: a frame cannot put its own in the card, nor make any other call look so.
      const call = typeof callId === 'string' ? callStates.get(callId) : undefined;
      if (call?.waitsForPerson && call.frameKey === `${sender.tabId}:${sender.frameId}`) {
        call.onState?.({ state: 'awaiting-confirmation', prompt: FORM_WAITS_PROMPT });
      }
    },
    'frame/navigating': (message, sender) => {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      const { callId } = message as { callId?: unknown };
      if (typeof callId === 'string' && callStates.get(callId)?.frameKey === frameKey) navigation.callNavigating(callId, frameKey);
    },
  };

  /** What a content script asks about its own frame: answered about the attested sender, whatever the message says. */
  const frameQuestions: ChannelHandlers<FrameChannel, FrameSender> = {
    'frame/may-use-tools': (_message, sender) => registry.mayUseTools(sender),
    'frame/tools': (message, sender) => Promise.resolve(offerFrameReport(message.report, sender)),
    ...continuationQuestions(continuations, (callId, sender) => {
      const running = callStates.get(callId);
      return (
        running?.frameKey === `${sender.tabId}:${sender.frameId}` &&
        (running.documentId === undefined || sender.documentId === undefined || running.documentId === sender.documentId)
      );
    }),
    'frame/exposed-tools': (message, sender) => exposure.list(sender, message.fromOrigins),
    'frame/run-exposed': (message, sender) => exposure.run(sender, message),
  };

  /** What the agent host asks (only extension pages reach here: the background checks the sender). */
  const hostHandlers: ChannelHandlers<RouterChannel> = {
    'router/get-tools': (message) => router.getTools(message.tabId),
    'router/call-tool': (message) => {
      const expect = message.expect === undefined ? undefined : readExpectedTool(message.expect);
      if (message.expect !== undefined && !expect) {
        const output = toolErrorOutput('tool_changed', `The approval of "${message.call?.name}" could not be read. Nothing was run.`);
        return snapshot(message.tabId).then((after) => ({ output, snapshot: after }));
      }
      const controller = new AbortController();
      hostCalls.set(message.requestId, controller);
      return (
        router
          .callTool(message.tabId, message.call, {
            signal: controller.signal,
            ...(expect ? { expect } : {}),
            onState: (state) => ports.notifyHost?.({ type: 'host/call-state', requestId: message.requestId, ...state }),
          })
          // The tools after the call come with its answer: the host's next step needs them, and asks nothing.
          .then(async (output): Promise<HostCallAnswer> => ({ output, snapshot: await snapshot(message.tabId) }))
          .finally(() => hostCalls.delete(message.requestId))
      );
    },
    'router/keepalive': () => true,
    'router/cancel-call': (message) => {
      hostCalls.get(message.requestId)?.abort();
      return true;
    },
  };

  const router: ToolRouter = {
    async getTools(tabId) {
      const state = await load(tabId);
      watch(tabId, state);
      return snapshotOf(tabId, state);
    },
    callTool(tabId, call, options = {}) {
      // A page whose tools never settle cannot make calls pile up without end: one past the cap is refused at once.
      const waiting = pendingCalls.get(tabId) ?? 0;
      if (waiting >= MAX_PENDING_CALLS_PER_TAB) return Promise.resolve(tooManyCalls(call.name));
      pendingCalls.set(tabId, waiting + 1);
      const previous = queues.get(tabId) ?? Promise.resolve();
      const result = previous
        .then(() =>
          runCall(tabId, call, options).catch((error) =>
            toolErrorOutput('frame_gone', `The call failed in the extension: ${String(error)}`),
          ),
        )
        .finally(() => {
          const left = (pendingCalls.get(tabId) ?? 1) - 1;
          if (left > 0) pendingCalls.set(tabId, left);
          else pendingCalls.delete(tabId);
        });
      queues.set(
        tabId,
        result.then(() => undefined),
      );
      return result;
    },
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
    handleHostMessage(message) {
      return handleMessage(hostHandlers, message, undefined);
    },
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
      if (await registry.isWatched(tabId)) await ports.loadConnector?.(tabId).catch(() => undefined);
    },
    async forgetTab(tabId) {
      budget.forgetTab(tabId);
      loadsHeld.delete(tabId);
      pendingCalls.delete(tabId);
      navigation.forgetTab(tabId);
      continuations.forgetTab(tabId);
      queues.delete(tabId);
      exposure.forgetTab(tabId);
      for (const frameKey of [...documents.keys()]) if (frameKey.startsWith(`${tabId}:`)) documents.delete(frameKey);
      await registry.forget(tabId);
    },
    topDocumentLeft: checkCrashed,
  };
  return router;
}

/** Whether a message from anywhere is one these handlers take (its type only). */
function isOneOf(handlers: object, message: unknown): boolean {
  const type = (message as { type?: unknown } | null)?.type;
  return typeof type === 'string' && Object.hasOwn(handlers, type);
}

/** One call too many for the tab (MAX_PENDING_CALLS_PER_TAB): refused at once, in the extension's words. */
function tooManyCalls(name: string): ToolOutput {
  return toolErrorOutput(
    'too_many_calls',
    `"${name}" was not run: this tab already has ${MAX_PENDING_CALLS_PER_TAB} tool calls waiting or running, the most the extension allows. Wait for them to end.`,
  );
}
