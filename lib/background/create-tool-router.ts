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
  FrameCallResult,
  FrameReport,
  HostToBackgroundMessage,
} from '../messaging/bridge-messages';
import { CAP_NOTE_ROOM, capToolOutput, DEFAULT_MAX_RESULT_CHARS } from '../webmcp/cap-tool-output';
import { toModelFacingNames, toolIdentityKey } from '../webmcp/to-model-facing-names';
import { toolErrorOutput } from '../webmcp/tool-error-output';
import type { TabToolEntry, TabToolSnapshot, ToolBridge, ToolCallOptions } from './tool-bridge';

/** The slice of chrome.storage.session the router needs. */
export interface SessionStore {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
}

export interface ToolRouterPorts {
  store: SessionStore;
  /** tabs.sendMessage to one frame; rejects when the frame has no listener (gone, reloaded). */
  sendToFrame(tabId: number, frameId: number, message: BackgroundToFrameMessage): Promise<unknown>;
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
}

/** Who sent a content-script message. */
export interface FrameSender {
  tabId: number;
  frameId: number;
}

interface TabState {
  frames: Record<string, FrameReport>;
  /**
   * Model-facing names given out in this tab, by tool identity (frame, origin, name). A name stays with its tool
   * while the top document lives, and is never handed to another tool, so a name the model saw earlier can only
   * ever reach the tool it meant (or none).
   */
  names: Record<string, string>;
}

export interface ToolRouter extends ToolBridge {
  /** Feed a message from a content script. Returns true when it was a bridge message. */
  handleFrameMessage(message: unknown, sender: FrameSender): boolean;
  /** Feed a message from the agent host; resolves with the answer, or undefined when it is not a bridge message. */
  handleHostMessage(message: unknown): Promise<unknown> | undefined;
  /** The tab closed. */
  forgetTab(tabId: number): Promise<void>;
}

const NAVIGATION_QUIET_MS = 300;
const NAVIGATION_SETTLE_CAP_MS = 2_000;

const key = (tabId: number) => `bridge:tab:${tabId}`;

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
  const callStates = new Map<string, (state: { state: 'awaiting-confirmation'; prompt: string }) => void>();
  const navigating = new Set<string>();
  const hostCalls = new Map<string, AbortController>();
  let writes: Promise<unknown> = Promise.resolve();
  let callCounter = 0;

  const load = (tabId: number): Promise<TabState> => {
    const known = tabs.get(tabId);
    if (known) return Promise.resolve(known);
    let pending = loading.get(tabId);
    if (!pending) {
      pending = ports.store.get([key(tabId)]).then((stored) => {
        const state = tabs.get(tabId) ?? (stored[key(tabId)] as TabState | undefined) ?? { frames: {}, names: {} };
        state.names ??= {};
        tabs.set(tabId, state);
        loading.delete(tabId);
        return state;
      });
      loading.set(tabId, pending);
    }
    return pending;
  };

  const save = (tabId: number, state: TabState) => {
    writes = writes.then(() => ports.store.set({ [key(tabId)]: state })).catch(() => undefined);
    const count = Object.values(state.frames).reduce((n, frame) => n + frame.tools.length, 0);
    ports.setBadge(tabId, count > 0 ? String(count) : '');
    for (const listener of listeners) listener(tabId);
    ports.notifyHost?.({ type: 'bridge:tools-changed', tabId });
  };

  const setFrame = async (tabId: number, frameId: number, report: FrameReport | undefined) => {
    const state = await load(tabId);
    if (frameId === 0 && report === undefined) {
      state.frames = {};
      state.names = {};
    } else if (report === undefined) delete state.frames[frameId];
    else {
      state.frames[frameId] = report;
      const unnamed = report.tools
        .map((tool) => ({ frameId, origin: report.origin, name: tool.name }))
        .filter((identity) => state.names[toolIdentityKey(identity)] === undefined);
      const fresh = toModelFacingNames(unnamed, Object.values(state.names));
      unnamed.forEach((identity, i) => {
        state.names[toolIdentityKey(identity)] = fresh[i];
      });
    }
    save(tabId, state);
  };

  const snapshot = async (tabId: number): Promise<TabToolSnapshot> => {
    const state = await load(tabId);
    const frameIds = Object.keys(state.frames)
      .map(Number)
      .sort((a, b) => a - b);
    const owned: { frameId: number; report: FrameReport; index: number }[] = [];
    for (const frameId of frameIds) {
      const report = state.frames[frameId];
      for (let index = 0; index < report.tools.length; index++) owned.push({ frameId, report, index });
    }
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
    return { tabId, tools, page };
  };

  /** The next document's report, once its reports have been quiet for a moment (its scripts register tools). */
  const waitForReport = async (tabId: number, frameId: number, after: number): Promise<FrameReport | undefined> => {
    const latest = latestReports.get(`${tabId}:${frameId}`);
    let report = latest && latest.generation > after ? latest.report : await nextReport(tabId, frameId, after, navigationTimeoutMs);
    const deadline = Date.now() + NAVIGATION_SETTLE_CAP_MS;
    while (report && Date.now() < deadline) {
      const later = await nextReport(tabId, frameId, after, NAVIGATION_QUIET_MS);
      if (!later) break;
      report = later;
    }
    return report;
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
    if (options.signal?.aborted) return toolErrorOutput('cancelled', 'The call was cancelled before it started.');
    const snap = await snapshot(tabId);
    const entry = snap.tools.find((t) => t.name === call.name);
    if (!entry) {
      const names = snap.tools.map((t) => t.name).join(', ') || 'none';
      return toolErrorOutput('unknown_tool', `No tool named "${call.name}" on this page. Available tools: ${names}.`);
    }
    const callId = `${Date.now().toString(36)}-${++callCounter}`;
    const frameKey = `${tabId}:${entry.frameId}`;
    const generation = generations.get(frameKey) ?? 0;
    if (options.onState) callStates.set(callId, options.onState);
    const cancelled = new Promise<ToolOutput>((resolve) => {
      const onAbort = () => {
        void ports.sendToFrame(tabId, entry.frameId, { type: 'bridge:cancel', callId }).catch(() => undefined);
        resolve(toolErrorOutput('cancelled', `"${call.name}" was cancelled; the page was told (toolcancel).`));
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const sent = ports
      .sendToFrame(tabId, entry.frameId, {
        type: 'bridge:call',
        callId,
        name: entry.originalName,
        input: call.input,
        timeoutMs: options.timeoutMs ?? callTimeoutMs,
        maxResultChars,
      })
      .then(
        async (answer): Promise<ToolOutput> => {
          const result = answer as FrameCallResult | undefined;
          if (result?.kind === 'navigated') return navigatedOutput(await waitForReport(tabId, entry.frameId, generation), call.name);
          if (result?.kind !== 'output') {
            return toolErrorOutput('frame_gone', `The frame that owned "${call.name}" did not answer (it may have been reloaded).`);
          }
          if (result.report) await setFrame(tabId, entry.frameId, result.report);
          // The frame caps its results, but a compromised one could send anything: the cap holds here too.
          return capToolOutput(result.output, maxResultChars + CAP_NOTE_ROOM);
        },
        async (error): Promise<ToolOutput> => {
          if (navigating.has(callId)) return navigatedOutput(await waitForReport(tabId, entry.frameId, generation), call.name);
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

  const router: ToolRouter = {
    getTools: snapshot,
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
      const m = message as { type?: unknown } | null;
      if (typeof m !== 'object' || m === null) return false;
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      if (m.type === 'frame-ready') {
        generations.set(frameKey, (generations.get(frameKey) ?? 0) + 1);
        void setFrame(sender.tabId, sender.frameId, undefined);
        return true;
      }
      if (m.type === 'bridge:frame-tools') {
        const report = (m as { report?: unknown }).report;
        if (!isFrameReport(report)) return true;
        void setFrame(sender.tabId, sender.frameId, report).then(() => {
          const generation = generations.get(frameKey) ?? 0;
          latestReports.set(frameKey, { generation, report });
          for (const waiter of reportWaiters) {
            if (waiter.tabId === sender.tabId && waiter.frameId === sender.frameId && generation > waiter.after) waiter.resolve(report);
          }
        });
        return true;
      }
      if (m.type === 'bridge:frame-call-state') {
        const { callId, prompt } = m as { callId?: unknown; prompt?: unknown };
        if (typeof callId === 'string' && typeof prompt === 'string') {
          callStates.get(callId)?.({ state: 'awaiting-confirmation', prompt: prompt.slice(0, 300) });
        }
        return true;
      }
      if (m.type === 'bridge:frame-navigating') {
        const { callId } = m as { callId?: unknown };
        if (typeof callId === 'string') navigating.add(callId);
        return true;
      }
      return false;
    },
    handleHostMessage(message) {
      const m = message as HostToBackgroundMessage | null;
      if (typeof m !== 'object' || m === null) return undefined;
      if (m.type === 'bridge:get-tools') return snapshot(m.tabId);
      if (m.type === 'bridge:call-tool') {
        const controller = new AbortController();
        hostCalls.set(m.requestId, controller);
        return router
          .callTool(m.tabId, m.call, {
            signal: controller.signal,
            onState: (state) => ports.notifyHost?.({ type: 'bridge:call-state', requestId: m.requestId, ...state }),
          })
          .finally(() => hostCalls.delete(m.requestId));
      }
      if (m.type === 'bridge:keepalive') return Promise.resolve(true);
      if (m.type === 'bridge:cancel-call') {
        hostCalls.get(m.requestId)?.abort();
        return Promise.resolve(true);
      }
      return undefined;
    },
    async forgetTab(tabId) {
      tabs.delete(tabId);
      queues.delete(tabId);
      for (const frameKey of [...latestReports.keys()]) if (frameKey.startsWith(`${tabId}:`)) latestReports.delete(frameKey);
      for (const frameKey of [...generations.keys()]) if (frameKey.startsWith(`${tabId}:`)) generations.delete(frameKey);
      await ports.store.remove([key(tabId)]);
    },
  };
  return router;
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
