/**
 * The background's tool router: keeps every tab's frame reports (in session storage, since a service worker
 * can stop at any time), builds tab snapshots with unique model-facing names, routes calls to the owning frame
 * one at a time per tab, follows a call that navigated to the next document, and keeps the toolbar badge at
 * the tab's tool count. It is also the ToolBridge of an agent host living in the background (Firefox).
 */
import type { ToolCall, ToolOutput } from '../agent/types';
import type {
  BackgroundToFrameMessage,
  BackgroundToHostMessage,
  BridgeChannel,
  FrameChannel,
  FrameReport,
  HostCallAnswer,
  RouterChannel,
} from '../messaging/bridge-messages';
import { type ChannelHandlers, handleMessage, sendMessage } from '../messaging/channel';
import { CAP_NOTE_ROOM, capToolOutput, DEFAULT_MAX_RESULT_CHARS } from '../webmcp/cap-tool-output';
import { assignToolNames, toolIdentityKey } from '../webmcp/to-model-facing-names';
import { cancelledBeforeStart, cancelledInPage, toolErrorOutput } from '../webmcp/tool-error-output';
import type { FrameSender } from './attest-frame-sender';
import { capTabTools, MAX_TOOL_BYTES_PER_TAB, MAX_TOOLS_PER_TAB } from './cap-tab-tools';
import { createFrameDelegation } from './create-frame-delegation';
import { createTabWriteQueue } from './create-tab-write-queue';
import { readExpectedTool, toolChange } from './expected-tool';
import type { DroppedTools, TabToolEntry, TabToolSnapshot, ToolBridge, ToolCallOptions } from './tool-bridge';

/** The slice of chrome.storage.session the router needs. */
export interface SessionStore {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
}

export interface ToolRouterPorts {
  store: SessionStore;
  /**
   * tabs.sendMessage to one frame; rejects when the frame has no listener (gone, reloaded). With a documentId (Chrome)
   * it reaches that document only, so a call never lands in the document that replaced it.
   */
  sendToFrame(tabId: number, frameId: number, message: BackgroundToFrameMessage, documentId?: string): Promise<unknown>;
  /** action.setBadgeText for one tab ('' clears it). */
  setBadge(tabId: number, text: string): void;
  /** Broadcast to the agent host (Chrome: runtime.sendMessage). Optional: a host in the same context needs none. */
  notifyHost?(message: BackgroundToHostMessage): void;
  /** A call's time limit in the page (default 30 s; waiting for the person's confirmation is not limited). */
  callTimeoutMs?: number;
  /** Cap on a result's characters (default 20,000). */
  maxResultChars?: number;
  /** How long a navigated call waits for the next document to report (default 10 s). */
  navigationTimeoutMs?: number;
  /** How long a cross-origin frame's delegation check waits for its parent's token (default 3 s). */
  delegationWaitMs?: number;
  /**
   * Loads the rest of the bridge (page-bridge.js in the page's world, bridge.js in the isolated one) into one
   * document, or into every frame of the tab without `frame`. Loading twice does nothing. Without it (tests of the
   * router alone) frames are assumed to have their bridge.
   */
  loadBridge?(tabId: number, frame?: { frameId: number; documentId?: string }): Promise<void>;
  /**
   * How long a call whose frame stopped answering waits for evidence that it navigated (the frame's pagehide
   * notice, or its next document) before it counts as gone (default 1 s). A message's rejection can overtake
   * the notice the unloading document sent just before.
   */
  goneEvidenceMs?: number;
}

export type { FrameSender };

/** A frame's report as stored: its URL and origin are the browser's attestation, never the frame's claim. */
interface StoredFrame extends FrameReport {
  documentId?: string;
  /** Tools this frame reported beyond what a whole tab may offer, cut on arrival (counted as dropped). */
  cut?: number;
}

interface TabState {
  frames: Record<string, StoredFrame>;
  /**
   * Model-facing names given out in this tab, by tool identity (frame, origin, name). A name stays with its tool
   * while the top document lives, and is never handed to another tool, so a name the model saw earlier can only
   * ever reach the tool it meant (or none).
   */
  names: Record<string, string>;
  /** The attested origin of every frame heard from in this top document, by frame id. */
  seen: Record<string, string>;
  /**
   * Whether a frame that is not same-origin with the top may serve tools (the page delegated `tools` to it, see
   * create-frame-delegation.ts). A frame without a verdict yet serves none.
   */
  delegated: Record<string, boolean>;
  /**
   * Someone asked for this tab's tools (the panel, a run, a test): every document of the tab gets the whole bridge
   * from now on, and every change is pushed to the host with its snapshot.
   */
  watched?: boolean;
  /** Grows with every change: the host keeps the snapshot with the highest revision (pushes and answers race). */
  revision?: number;
}

export interface ToolRouter extends ToolBridge {
  /** Feed a message from a content script. Returns true when it was a bridge message. */
  handleFrameMessage(message: unknown, sender: FrameSender): boolean;
  /** Feed a message from the agent host; resolves with the answer, or undefined when it is not a bridge message. */
  handleHostMessage(message: unknown): Promise<unknown> | undefined;
  /** The tab closed. */
  forgetTab(tabId: number): Promise<void>;
}


const key = (tabId: number) => `bridge:tab:${tabId}`;

/** Pushes of one tab's snapshot are coalesced over this long (see schedulePush). */
const PUSH_COALESCE_MS = 30;

/** Creates the router. */
export function createToolRouter(ports: ToolRouterPorts): ToolRouter {
  const callTimeoutMs = ports.callTimeoutMs ?? 30_000;
  const maxResultChars = ports.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const navigationTimeoutMs = ports.navigationTimeoutMs ?? 10_000;
  const tabs = new Map<number, TabState>();
  const loading = new Map<number, Promise<TabState>>();
  const listeners = new Set<(tabId: number) => void>();
  const queues = new Map<number, Promise<unknown>>();
  const generations = new Map<string, number>();
  const latestReports = new Map<string, { generation: number; report: FrameReport }>();
  const reportWaiters = new Set<{ tabId: number; frameId: number; after: number; resolve: (r: FrameReport) => void }>();
  /** Running calls: the frame each runs in (only it may report on the call) and who hears its parked state. */
  const callStates = new Map<string, { frameKey: string; onState?: (state: { state: 'awaiting-confirmation'; prompt: string }) => void }>();
  /** The document each frame announced last (frame/ready), so a late report of the document it replaced is ignored. */
  const documents = new Map<string, string>();
  const navigating = new Set<string>();
  const hostCalls = new Map<string, AbortController>();
  /** Calls waiting to learn whether their frame navigated: woken by that frame's frame/ready and pagehide notices. */
  const frameEventWaiters = new Set<{ frameKey: string; wake: () => void }>();
  const frameEvent = (frameKey: string) => {
    for (const waiter of [...frameEventWaiters]) if (waiter.frameKey === frameKey) waiter.wake();
  };
  const writes = createTabWriteQueue();
  let callCounter = 0;

  const load = (tabId: number): Promise<TabState> => {
    const known = tabs.get(tabId);
    if (known) return Promise.resolve(known);
    let pending = loading.get(tabId);
    if (!pending) {
      pending = ports.store.get([key(tabId)]).then((stored) => {
        const state = tabs.get(tabId) ?? (stored[key(tabId)] as TabState | undefined) ?? { frames: {}, names: {}, seen: {}, delegated: {} };
        state.names ??= {};
        state.seen ??= {};
        state.delegated ??= {};
        tabs.set(tabId, state);
        loading.delete(tabId);
        return state;
      });
      loading.set(tabId, pending);
    }
    return pending;
  };

  const save = (tabId: number, state: TabState) => {
    state.revision = Math.max((state.revision ?? 0) + 1, Date.now());
    // Per tab and coalesced: the write reads the tab's latest state when it runs (none once the tab is forgotten).
    void writes.schedule(tabId, async () => {
      const latest = tabs.get(tabId);
      if (latest) await ports.store.set({ [key(tabId)]: latest });
    });
    const count = selectTools(state).tools.length;
    ports.setBadge(tabId, count > 0 ? String(count) : '');
    for (const listener of listeners) listener(tabId);
    if (state.watched) schedulePush(tabId);
  };

  /**
   * Pushed, so that the host never asks: only for tabs someone watches, and at most one snapshot per tab every
   * PUSH_COALESCE_MS, the latest (a page that floods reports must not flood every extension page with snapshots).
   * A call's own answer carries its snapshot at once, so no call waits for this.
   */
  const pushTimers = new Map<number, ReturnType<typeof setTimeout>>();
  const schedulePush = (tabId: number) => {
    if (pushTimers.has(tabId)) return;
    pushTimers.set(
      tabId,
      setTimeout(() => {
        pushTimers.delete(tabId);
        const latest = tabs.get(tabId);
        if (latest?.watched) ports.notifyHost?.({ type: 'host/tools-changed', tabId, snapshot: snapshotOf(tabId, latest) });
      }, PUSH_COALESCE_MS),
    );
  };

  /** Starts watching a tab: the whole bridge goes into every frame it has now, and into each document it loads. */
  const watch = (tabId: number, state: TabState) => {
    if (state.watched) return;
    state.watched = true;
    save(tabId, state);
    void ports.loadBridge?.(tabId).catch(() => undefined);
  };

  const delegation = createFrameDelegation({
    // The parent may have no tools of its own, and so no bridge yet: it gets one to post the tokens with.
    askOffers: async (tabId, frameId) => {
      await ports.loadBridge?.(tabId, { frameId }).catch(() => undefined);
      return sendMessage<BridgeChannel, 'bridge/offer-delegation'>((m) => ports.sendToFrame(tabId, frameId, m), 'bridge/offer-delegation', {});
    },
    origins: async (tabId) => Object.fromEntries(Object.entries((await load(tabId)).seen).map(([id, origin]) => [Number(id), origin])),
    ...(ports.delegationWaitMs !== undefined ? { waitMs: ports.delegationWaitMs } : {}),
  });
  const deciding = new Set<string>();
  /** Frames whose check got no answer in time: they serve nothing for now, and their next report asks again. */
  const unanswered = new Set<string>();

  /** Names the tools of every admitted frame (see assignToolNames). */
  const rename = (state: TabState) => {
    const present = admittedFrameIds(state).flatMap((frameId) =>
      state.frames[frameId].tools.map((tool) => ({ frameId, origin: state.frames[frameId].origin, name: tool.name })),
    );
    state.names = assignToolNames(state.names, present);
  };

  /** A frame that is not same-origin with the top and has tools gets its delegation checked, once per document. */
  const checkDelegation = (tabId: number, frameId: number, state: TabState) => {
    const frameKey = `${tabId}:${frameId}`;
    const decided = state.delegated[frameId] !== undefined && !unanswered.has(frameKey);
    if (isSelfOrigin(state, frameId) || decided || deciding.has(frameKey)) return;
    if (!state.frames[frameId]?.tools.length) return;
    deciding.add(frameKey);
    const origin = state.seen[frameId];
    void delegation
      .decide(tabId, frameId)
      .then(async (allowed) => {
        const now = await load(tabId);
        // The frame got a new document (or the tab a new top) meanwhile: that one gets its own check.
        if (now.seen[frameId] !== origin || (now.delegated[frameId] !== undefined && !unanswered.has(frameKey))) return;
        if (allowed === undefined) unanswered.add(frameKey);
        else unanswered.delete(frameKey);
        now.delegated[frameId] = allowed ?? false;
        rename(now);
        save(tabId, now);
      })
      .finally(() => deciding.delete(frameKey));
  };

  const setFrame = async (tabId: number, frameId: number, report: StoredFrame | undefined, seenOrigin?: string) => {
    const state = await load(tabId);
    if (frameId === 0 && report === undefined) {
      state.frames = {};
      state.names = {};
      state.seen = {};
      state.delegated = {};
      delegation.forgetTab(tabId);
      for (const frameKey of [...unanswered]) if (frameKey.startsWith(`${tabId}:`)) unanswered.delete(frameKey);
    } else if (report === undefined) {
      delete state.frames[frameId];
      if (seenOrigin !== undefined) {
        // A new document in this frame: its delegation is checked afresh.
        delete state.delegated[frameId];
        unanswered.delete(`${tabId}:${frameId}`);
        delegation.forgetFrame(tabId, frameId);
      }
    } else {
      state.frames[frameId] = report;
      rename(state);
    }
    if (seenOrigin !== undefined) state.seen[frameId] = seenOrigin;
    save(tabId, state);
    checkDelegation(tabId, frameId, state);
  };

  const snapshot = async (tabId: number): Promise<TabToolSnapshot> => snapshotOf(tabId, await load(tabId));

  const snapshotOf = (tabId: number, state: TabState): TabToolSnapshot => {
    const { tools: owned, dropped } = selectTools(state);
    const tools: TabToolEntry[] = owned.map(({ frameId, report, index }) => {
      const tool = report.tools[index];
      return {
        name: state.names[toolIdentityKey({ frameId, origin: report.origin, name: tool.name })] ?? tool.name,
        originalName: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        origin: report.origin,
        frameId,
        ...(report.documentId ? { documentId: report.documentId } : {}),
        ...(tool.schemaError ? { schemaError: tool.schemaError } : {}),
        // Only ever shown in the inspector; a frame's report is untrusted, so anything but an object is dropped.
        ...(typeof tool.outputSchema === 'object' && tool.outputSchema !== null && !Array.isArray(tool.outputSchema)
          ? { outputSchema: tool.outputSchema }
          : {}),
        ...(tool.declarative ? { declarative: true } : {}),
        ...(tool.needsConfirmation ? { needsConfirmation: true } : {}),
      };
    });
    const top = state.frames[0]?.page;
    const page = top ? { url: top.url, path: safePath(top.url), title: top.title, ...(top.h1 ? { h1: top.h1 } : {}) } : {};
    return { tabId, tools, page, revision: state.revision ?? 0, ...(dropped.length > 0 ? { dropped } : {}) };
  };

  /**
   * The next document's first report. It comes once that document is parsed and idle (bridge.ts), so the tools
   * its scripts register while loading are in it; tools that come later reach the host as pushed changes.
   */
  const waitForReport = async (tabId: number, frameId: number, after: number): Promise<FrameReport | undefined> => {
    const latest = latestReports.get(`${tabId}:${frameId}`);
    return latest && latest.generation > after ? latest.report : nextReport(tabId, frameId, after, navigationTimeoutMs);
  };

  /**
   * Whether a frame that stopped answering during a call navigated: it said so (pagehide), its next document
   * announced itself, or one of them comes within goneEvidenceMs.
   */
  const navigatedAway = async (tabId: number, frameId: number, callId: string, generation: number): Promise<boolean> => {
    const frameKey = `${tabId}:${frameId}`;
    const seen = () => navigating.has(callId) || (generations.get(frameKey) ?? 0) > generation;
    if (seen()) return true;
    await new Promise<void>((resolve) => {
      const waiter = {
        frameKey,
        wake: () => {
          if (!seen()) return;
          done();
        },
      };
      const done = () => {
        clearTimeout(timer);
        frameEventWaiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(done, ports.goneEvidenceMs ?? 1_000);
      frameEventWaiters.add(waiter);
    });
    return seen();
  };

  const nextReport = (tabId: number, frameId: number, after: number, timeoutMs: number): Promise<FrameReport | undefined> =>
    new Promise((resolve) => {
      const waiter = {
        tabId,
        frameId,
        after,
        resolve: (report: FrameReport) => {
          clearTimeout(timer);
          reportWaiters.delete(waiter);
          resolve(report);
        },
      };
      const timer = setTimeout(() => {
        reportWaiters.delete(waiter);
        resolve(undefined);
      }, timeoutMs);
      reportWaiters.add(waiter);
    });

  const navigatedOutput = (report: FrameReport | undefined, name: string): ToolOutput => {
    if (!report) {
      return toolErrorOutput('navigated', `"${name}" navigated the page and the new page did not report within ${navigationTimeoutMs / 1000} s.`);
    }
    const { url, title, h1, jsonLd } = report.page;
    let text = `"${name}" navigated the page to ${url}${title ? ` (“${title}”)` : ''}.`;
    if (h1) text += ` Its heading: “${h1}”.`;
    if (jsonLd) text += `\nStructured data on the new page (JSON-LD): ${JSON.stringify(jsonLd)}`;
    text += `\nIts tools: ${report.tools.map((t) => t.name).join(', ') || 'none'}.`;
    return capToolOutput(
      { content: [{ type: 'text', text: text.slice(0, maxResultChars) }], structuredContent: { navigatedTo: url, title, ...(h1 ? { h1 } : {}), ...(jsonLd ? { jsonLd } : {}) } },
      maxResultChars,
    );
  };

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
    const generation = generations.get(frameKey) ?? 0;
    callStates.set(callId, { frameKey, ...(options.onState ? { onState: options.onState } : {}) });
    // The frame that owns the tool, and only the document that registered it (Chrome).
    const toFrame = (message: BackgroundToFrameMessage) => ports.sendToFrame(tabId, entry.frameId, message, entry.documentId);
    const cancelled = new Promise<ToolOutput>((resolve) => {
      const onAbort = () => {
        void sendMessage<BridgeChannel, 'bridge/cancel'>(toFrame, 'bridge/cancel', { callId }).catch(() => undefined);
        resolve(cancelledInPage(call.name));
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const sent = sendMessage<BridgeChannel, 'bridge/call'>(toFrame, 'bridge/call', {
      callId,
      name: entry.originalName,
      input: call.input,
      timeoutMs: options.timeoutMs ?? callTimeoutMs,
      maxResultChars,
    })
      .then(
        async (result): Promise<ToolOutput> => {
          if (result?.kind === 'navigated') return navigatedOutput(await waitForReport(tabId, entry.frameId, generation), call.name);
          if (result?.kind !== 'output') {
            return toolErrorOutput('frame_gone', `The frame that owned "${call.name}" did not answer (it may have been reloaded).`);
          }
          const owner = (await load(tabId)).frames[entry.frameId];
          if (result.report && owner) {
            await setFrame(tabId, entry.frameId, trimToTabCaps(attest(result.report, { tabId, ...owner, frameId: entry.frameId })));
          }
          // The frame caps its results, but a compromised one could send anything: the cap holds here too.
          return capToolOutput(result.output, maxResultChars + CAP_NOTE_ROOM);
        },
        async (error): Promise<ToolOutput> => {
          if (await navigatedAway(tabId, entry.frameId, callId, generation)) {
            return navigatedOutput(await waitForReport(tabId, entry.frameId, generation), call.name);
          }
          await setFrame(tabId, entry.frameId, undefined);
          return toolErrorOutput('frame_gone', `The frame that owned "${call.name}" is gone (${String((error as Error)?.message ?? error)}).`);
        },
      );
    try {
      return await Promise.race([sent, cancelled]);
    } finally {
      callStates.delete(callId);
      navigating.delete(callId);
    }
  };

  /** What content scripts say: each field is untrusted, and the frame is who the browser says sent it. */
  const frameHandlers: ChannelHandlers<FrameChannel, FrameSender> = {
    'frame/ready': (_message, sender) => {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      generations.set(frameKey, (generations.get(frameKey) ?? 0) + 1);
      if (sender.documentId) documents.set(frameKey, sender.documentId);
      else documents.delete(frameKey);
      frameEvent(frameKey);
      void setFrame(sender.tabId, sender.frameId, undefined, sender.origin).then(async () => {
        if ((await load(sender.tabId)).watched) await ports.loadBridge?.(sender.tabId, sender);
      });
    },
    'frame/load': (_message, sender) => {
      // The frame shows WebMCP (stub.ts). Whatever it claims, it only gets the extension's own scripts, and only
      // into the document the browser says sent this.
      void ports.loadBridge?.(sender.tabId, sender).catch(() => undefined);
    },
    'frame/tools': (message, sender) => {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      const claimed: unknown = message.report;
      if (!isFrameReport(claimed)) return;
      // A late report of the document this frame has since replaced describes tools that no longer exist.
      const current = documents.get(frameKey);
      if (current && sender.documentId && sender.documentId !== current) return;
      const report = trimToTabCaps(attest(claimed, sender));
      void setFrame(sender.tabId, sender.frameId, report, sender.origin).then(() => {
        const generation = generations.get(frameKey) ?? 0;
        latestReports.set(frameKey, { generation, report });
        for (const waiter of reportWaiters) {
          if (waiter.tabId === sender.tabId && waiter.frameId === sender.frameId && generation > waiter.after) waiter.resolve(report);
        }
      });
    },
    'frame/delegation-token': (message, sender) => {
      delegation.present(sender, message.token);
    },
    'frame/call-state': (message, sender) => {
      const { callId, prompt } = message as { callId?: unknown; prompt?: unknown };
      // Only the frame running the call may say it waits: another frame cannot put words in its prompt.
      const call = typeof callId === 'string' ? callStates.get(callId) : undefined;
      if (call && call.frameKey === `${sender.tabId}:${sender.frameId}` && typeof prompt === 'string') {
        call.onState?.({ state: 'awaiting-confirmation', prompt: prompt.slice(0, 300) });
      }
    },
    'frame/navigating': (message, sender) => {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      const { callId } = message as { callId?: unknown };
      if (typeof callId === 'string' && callStates.get(callId)?.frameKey === frameKey) navigating.add(callId);
      frameEvent(frameKey);
    },
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
      return router
        .callTool(message.tabId, message.call, {
          signal: controller.signal,
          ...(expect ? { expect } : {}),
          onState: (state) => ports.notifyHost?.({ type: 'host/call-state', requestId: message.requestId, ...state }),
        })
        // The tools after the call come with its answer: the host's next step needs them, and asks nothing.
        .then(async (output): Promise<HostCallAnswer> => ({ output, snapshot: await snapshot(message.tabId) }))
        .finally(() => hostCalls.delete(message.requestId));
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
      const previous = queues.get(tabId) ?? Promise.resolve();
      const result = previous.then(() =>
        runCall(tabId, call, options).catch((error) => toolErrorOutput('frame_gone', `The call failed in the extension: ${String(error)}`)),
      );
      queues.set(
        tabId,
        result.then(() => undefined),
      );
      return result;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    handleFrameMessage(message, sender) {
      return handleMessage(frameHandlers, message, sender) !== undefined;
    },
    handleHostMessage(message) {
      return handleMessage(hostHandlers, message, undefined);
    },
    async forgetTab(tabId) {
      tabs.delete(tabId);
      writes.forget(tabId);
      for (const frameKey of [...unanswered]) if (frameKey.startsWith(`${tabId}:`)) unanswered.delete(frameKey);
      delegation.forgetTab(tabId);
      queues.delete(tabId);
      for (const frameKey of [...latestReports.keys()]) if (frameKey.startsWith(`${tabId}:`)) latestReports.delete(frameKey);
      for (const frameKey of [...generations.keys()]) if (frameKey.startsWith(`${tabId}:`)) generations.delete(frameKey);
      for (const frameKey of [...documents.keys()]) if (frameKey.startsWith(`${tabId}:`)) documents.delete(frameKey);
      await ports.store.remove([key(tabId)]);
    },
  };
  return router;
}

/** Whether a frame may serve tools without anyone's delegation: the top, and frames same-origin with it. */
function isSelfOrigin(state: TabState, frameId: number): boolean {
  if (frameId === 0) return true;
  const top = state.seen[0] ?? state.frames[0]?.origin;
  const origin = state.seen[frameId] ?? state.frames[frameId]?.origin;
  return top !== undefined && top !== 'null' && origin === top;
}

/** The frames whose tools count, in frame-id order: same-origin with the top, or delegated `tools` by the page. */
function admittedFrameIds(state: TabState): number[] {
  return Object.keys(state.frames)
    .map(Number)
    .filter((frameId) => isSelfOrigin(state, frameId) || state.delegated[frameId] === true)
    .sort((a, b) => a - b);
}

/**
 * The tools the tab's snapshot offers: admitted frames only (see admittedFrameIds), within the per-tab caps
 * (cap-tab-tools.ts), in frame-id order; and what was left out, with why.
 */
function selectTools(state: TabState): { tools: { frameId: number; report: StoredFrame; index: number }[]; dropped: DroppedTools[] } {
  const admitted = admittedFrameIds(state);
  const capped = capTabTools(admitted.map((frameId) => ({ frameId, tools: state.frames[frameId].tools })));
  const { kept } = capped;
  const overCaps = capped.dropped + admitted.reduce((n, frameId) => n + (state.frames[frameId].cut ?? 0), 0);
  const tools = admitted.flatMap((frameId) =>
    state.frames[frameId].tools.flatMap((_, index) => (kept.get(frameId)?.has(index) ? [{ frameId, report: state.frames[frameId], index }] : [])),
  );
  const dropped: DroppedTools[] = [];
  const undelegated = Object.entries(state.frames)
    .filter(([frameId]) => state.delegated[frameId] === false)
    .reduce((n, [, frame]) => n + frame.tools.length, 0);
  if (undelegated > 0) {
    dropped.push({
      count: undelegated,
      reason: 'not-delegated',
      note: `${plural(undelegated, 'tool')} from embedded frames of other sites left out: the page did not allow them to offer tools (allow="tools").`,
    });
  }
  if (overCaps > 0) {
    dropped.push({
      count: overCaps,
      reason: 'tab-cap',
      note: `${plural(overCaps, 'tool')} left out: the agent takes at most ${MAX_TOOLS_PER_TAB} tools and ${MAX_TOOL_BYTES_PER_TAB / 1024} KB of tool descriptions from one tab.`,
    });
  }
  return { tools, dropped };
}

/** A frame never holds more than a whole tab may offer: it bounds what a flood of reports stores and writes. */
function trimToTabCaps(report: StoredFrame): StoredFrame {
  const { kept } = capTabTools([{ frameId: 0, tools: report.tools }]);
  const keep = kept.get(0)!;
  if (keep.size === report.tools.length) return report;
  return { ...report, tools: report.tools.filter((_, i) => keep.has(i)), cut: report.tools.length - keep.size };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The report as the router keeps it: the frame's claimed URL and origin are replaced by the browser's attestation
 * (its `sender`), so grants and prompts judge the real origin, and the document it came from is remembered.
 */
function attest(report: FrameReport, sender: FrameSender): StoredFrame {
  // Field by field: a claimed report may carry `documentId` or `cut` of its own making.
  return {
    url: sender.url,
    origin: sender.origin,
    page: { ...report.page, url: sender.url },
    tools: report.tools,
    ...(sender.documentId ? { documentId: sender.documentId } : {}),
  };
}

/** A content script's report is untrusted: check its shape before storing it. */
function isFrameReport(value: unknown): value is FrameReport {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as FrameReport;
  return (
    typeof r.url === 'string' &&
    typeof r.origin === 'string' &&
    typeof r.page === 'object' &&
    r.page !== null &&
    Array.isArray(r.tools) &&
    r.tools.every((t) => typeof t === 'object' && t !== null && typeof t.name === 'string' && typeof t.description === 'string')
  );
}

function safePath(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}
