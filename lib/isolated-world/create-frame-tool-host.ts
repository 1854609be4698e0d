/**
 * The isolated content script's view of one frame's tools: it lists them (native `document.modelContext`
 * directly, everything else through the MAIN-world channel), reports changes, and runs calls one at a time with
 * a timeout, cancellation, result normalisation, a size cap and the cursor.
 *
 * Everything that comes from the page (tool entries, results, errors) is treated as data.
 */
import type { ToolOutput } from '../agent/types';
import { FORM_WAITS_PROMPT } from '../messaging/router-messages';
import type { FrameCallRequest, FrameCallResult, FrameReport, FrameTool } from '../messaging/router-messages';
import { describeThrown, thrownMessage } from '../page-data/describe-thrown';
import { capToolOutput, MAX_RAW_RESULT_CHARS, resultRefused } from '../agent/cap-tool-output';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import { createReportPacer } from './create-report-pacer';
import type { ToolCursor } from './create-tool-cursor';
import { normalizeToolResult } from './normalize-tool-result';
import { isLegacyApi } from '../messaging/tab-tool-snapshot';
import { followMutations, pointAtForm } from './point-cursor';
import type { PageChannel, PageToolInfo } from '../webmcp/page-channel';
import { createSettleWatch } from './create-settle-watch';
import { readPageContext } from './read-page-context';
import { isOversizedEntry, readToolEntry } from './read-tool-entry';
import { toolOwnerWindow } from '../webmcp/tool-owner-window';
import { cancelledBeforeStart, cancelledInPage, type ToolErrorCode, toolErrorOutput } from '../agent/tool-error-output';

/** The native ModelContext as the isolated world sees it. */
export interface NativeModelContext extends EventTarget {
  getTools(): Promise<unknown[]>;
  executeTool(tool: unknown, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}

interface FrameToolHostOptions {
  win: Window & typeof globalThis;
  doc: Document;
  native?: NativeModelContext;
  page?: PageChannel;
  cursor: ToolCursor;
  /**
   * Called with the frame's report when its tools or page changed (coalesced and paced: create-report-pacer.ts);
   * resolves with how long the router asks the frame to wait before its next report, if it says.
   */
  report: (report: FrameReport) => Promise<number | undefined> | void;
  /** Called when a call parks on a control the person must click. */
  onCallState: (callId: string, state: 'awaiting-confirmation', prompt: string) => void;
  /** Called when the document unloads while a call runs. */
  onNavigating: (callId: string) => void;
  /**
   * The longest a call waits after it resolved for the tool changes it started (default 1.5 s). The wait is
   * ended by evidence, not by this clock: see waitForSettle.
   */
  settle?: { capMs: number };
  /** The wait after a quiet page's first change before it is reported (default 50 ms). */
  debounceMs?: number;
}

interface FrameToolHost {
  list(): Promise<FrameReport>;
  call(request: FrameCallRequest): Promise<FrameCallResult>;
  cancel(callId: string): void;
}

const MAX_TOOLS_PER_FRAME = 256;
/** The longest a call waits for the tool changes it started, counted from when it resolved. */
const DEFAULT_SETTLE_CAP_MS = 1_500;
/** Schemas of one frame, in characters: keeps a hostile or careless page from filling session storage. */
const SCHEMA_BUDGET_PER_FRAME = 400_000;
/**
 * All of one frame's tools, in characters, at most: past it tools are left out (counted as oversized). Twice what
 * a whole tab offers the model (cap-tab-tools.ts), and under the router's limit on one report (1 MB).
 */
const TOOL_CHARS_PER_FRAME = 512 * 1024;

/** Creates the host and starts following tool changes. */
export function createFrameToolHost(options: FrameToolHostOptions): FrameToolHost {
  const { win, doc, native, page, cursor } = options;
  const settle = options.settle ?? { capMs: DEFAULT_SETTLE_CAP_MS };
  let nativeTools = new Map<string, unknown>();
  const running = new Map<string, AbortController>();
  // A cancel can overtake its call (still queued behind another, or still listing): remembered until it starts.
  const cancelledEarly = new Set<string>();
  let unloading = false;
  // Evidence that the page is still changing, for the wait after a call (create-settle-watch.ts).
  const activity = createSettleWatch({ win, doc, cursor, page, capMs: settle.capMs, list: () => list(), isUnloading: () => unloading });
  let lastReportJson = '';
  /** The last list read, and when: reused by a call when nothing changed since. */
  let lastList: { at: number; url: string; report: FrameReport } | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const list = async (): Promise<FrameReport> => {
    // Stamped before reading: a change during the read makes this list stale for the next call.
    const at = Date.now();
    const tools: FrameTool[] = [];
    const seen = new Set<string>();
    /** Tools left out as heavier than one tool may be (counted in the report, for the panel's note). */
    let heavy = 0;
    // Swapped in whole at the end: a call may be looking tools up while a list is in flight.
    const freshNative = new Map<string, unknown>();
    if (native) {
      try {
        for (const raw of await native.getTools()) {
          // Native getTools() also lists same-origin frames' tools: keep this frame's own (their frame lists the rest).
          if (!ownedBy(raw, win)) continue;
          if (isOversizedEntry(raw)) {
            heavy++;
            continue;
          }
          const tool = readToolEntry(raw);
          if (!tool || seen.has(tool.name)) continue;
          seen.add(tool.name);
          freshNative.set(tool.name, raw);
          tools.push(tool);
        }
      } catch {
        // A native list that fails reads as empty; the page's own implementation may still answer below.
      }
    }
    if (page) {
      try {
        const infos = await page.request('list');
        for (const info of Array.isArray(infos) ? (infos as PageToolInfo[]) : []) {
          if (typeof info !== 'object' || info === null) continue;
          if (info.oversized === true || isOversizedEntry({ description: info.description, inputSchema: info.inputSchemaJson })) {
            heavy++;
            continue;
          }
          const tool = readToolEntry({
            name: info.name,
            title: info.title,
            description: info.description,
            inputSchema: info.inputSchemaJson,
            outputSchema: info.outputSchemaJson,
            annotations: info.annotations,
          });
          if (!tool || seen.has(tool.name)) continue;
          if (typeof info.inputSchemaError === 'string') tool.schemaError = info.inputSchemaError.slice(0, 500);
          if (isLegacyApi(info.legacyApi)) tool.legacyApi = info.legacyApi;
          if (info.form === 'submits' || info.form === 'waits') {
            tool.declarative = true;
            if (info.form === 'waits') tool.needsConfirmation = true;
          }
          seen.add(tool.name);
          tools.push(tool);
        }
      } catch {
        // The page's side failed; native tools (if any) still count.
      }
    }
    nativeTools = freshNative;
    const { kept, oversized } = withinToolLimits(tools);
    let schemaChars = 0;
    for (const tool of kept) {
      schemaChars += JSON.stringify(tool.inputSchema).length;
      if (schemaChars > SCHEMA_BUDGET_PER_FRAME) {
        tool.inputSchema = { type: 'object', properties: {} };
        tool.schemaError = `inputSchema dropped: this frame's schemas exceed ${SCHEMA_BUDGET_PER_FRAME} characters in all`;
      }
    }
    // Native lists no word on where a tool comes from: a form of the same name stands for it (a call checks).
    for (const tool of kept) {
      const form = freshNative.has(tool.name) ? formOf(tool.name) : undefined;
      if (form) {
        tool.declarative = true;
        if (!form.hasAttribute('toolautosubmit')) tool.needsConfirmation = true;
      }
    }
    const report: FrameReport = {
      url: win.location.href,
      origin: win.location.origin,
      page: readPageContext(doc),
      tools: kept.slice(0, MAX_TOOLS_PER_FRAME),
      ...(oversized + heavy > 0 ? { oversized: oversized + heavy } : {}),
    };
    lastList = { at, url: report.url, report };
    return report;
  };

  const formOf = (name: string): HTMLFormElement | undefined => {
    for (const form of Array.from(doc.querySelectorAll('form[toolname][tooldescription]'))) {
      if (form.getAttribute('toolname') === name) return form as HTMLFormElement;
    }
    return undefined;
  };

  // A burst of changes is one report, read when it goes out; a page that keeps changing is reported less often.
  const pacer = createReportPacer({
    firstDelayMs: options.debounceMs ?? 50,
    send: async () => {
      const report = await list();
      const json = JSON.stringify(report);
      if (json === lastReportJson) return false;
      lastReportJson = json;
      void Promise.resolve(options.report(report)).then(
        (wait) => wait !== undefined && pacer.waitAtLeast(wait),
        () => undefined,
      );
      return true;
    },
  });
  const changed = () => {
    activity.toolsChanged();
    pacer.changed();
  };
  native?.addEventListener('toolchange', changed);
  page?.onChanged(changed);
  // Calls whose tool resolved and that wait for the changes it started: a document that goes away meanwhile was
  // navigated by the call (a form whose page submits it by script, then moves on).
  const settling = new Set<string>();
  win.addEventListener('pagehide', () => {
    unloading = true;
    for (const callId of [...running.keys(), ...settling]) options.onNavigating(callId);
    activity.stir();
  });
  const execute = async (request: FrameCallRequest, signal: AbortSignal, input: Record<string, unknown>): Promise<unknown> => {
    signal.throwIfAborted();
    const nativeTool = nativeTools.get(request.name);
    if (native && nativeTool) {
      try {
        return await native.executeTool(nativeTool, input, { signal });
      } catch (error) {
        if (!thrownMessage(error).startsWith('Failed to parse input')) throw error;
        return native.executeTool(nativeTool, JSON.stringify(input), { signal });
      }
    }
    if (!page) throw Object.assign(new Error(`No tool named "${request.name}" in this frame`), { name: 'NotFoundError' });
    const { id, result } = page.request('call', { name: request.name, input, callId: request.callId });
    const onAbort = () => page.cancel(id);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([
        result,
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };

  const runCall = async (request: FrameCallRequest): Promise<FrameCallResult> => {
    const fail = (code: ToolErrorCode, message: string): FrameCallResult => ({ kind: 'output', output: toolErrorOutput(code, message) });
    // The last list is current unless the tools or the route changed since: a call then costs no extra round trip.
    let report = lastList && lastList.at > activity.lastChangeAt() && lastList.url === win.location.href ? lastList.report : await list();
    const tool = report.tools.find((t) => t.name === request.name);
    if (!tool) {
      const names = report.tools.map((t) => t.name).join(', ') || 'none';
      return fail('unknown_tool', `No tool named "${request.name}" in this frame (tools here: ${names}).`);
    }
    const input = toInputObject(request.input);
    if (typeof input === 'string') return fail('invalid_input', input);

    if (cancelledEarly.delete(request.callId)) return { kind: 'output', output: cancelledBeforeStart() };
    const controller = new AbortController();
    running.set(request.callId, controller);
    const form = tool.declarative ? formOf(tool.name) : undefined;
    const label = tool.title || tool.name;
    const stopWatching = form
      ? pointAtForm(win, cursor, form, input, label, tool.needsConfirmation === true)
      : followMutations(win, doc, cursor, label);
    const timeout = () =>
      controller.abort(Object.assign(new Error(`The tool did not finish within ${request.timeoutMs} ms`), { name: 'TimeoutError' }));
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(timeout, request.timeoutMs);
    // A form without toolautosubmit waits for the person, without a time limit (webmcp#307), once it is known to:
    // the polyfill says so of its own forms; native's form shows :tool-form-active, which a page cannot fake. A
    // `<form toolname>` beside an imperative tool of the same name is neither: its call keeps the time limit.
    const waitForPerson = () => {
      clearTimeout(timer);
      timer = undefined;
      options.onCallState(request.callId, 'awaiting-confirmation', FORM_WAITS_PROMPT);
    };
    let stopEvidence = () => {};
    if (form && tool.needsConfirmation) {
      if (!nativeTools.has(request.name)) waitForPerson();
      else if (native) stopEvidence = whenNativeFormWaits(native, form, request.name, waitForPerson);
    }
    const startedAt = Date.now();
    const before = { url: win.location.href, names: new Set(report.tools.map((t) => t.name)) };
    const stopObserving = activity.observeMutations();
    let output: ToolOutput;
    try {
      const raw = await execute(request, controller.signal, input);
      if (raw === null || unloading) return { kind: 'navigated' };
      // A result of tens of MB is refused before it is parsed, normalised or cut (measuring stops at the limit).
      output =
        jsonSizeUpTo(raw, MAX_RAW_RESULT_CHARS) === Number.POSITIVE_INFINITY
          ? resultRefused(request.name)
          : capToolOutput(normalizeToolResult(raw), request.maxResultChars);
    } catch (error) {
      // A call whose document is going away failed because it navigated, not because the tool broke.
      if (unloading) return { kind: 'navigated' };
      output = errorOutput(error, controller.signal, request.name);
    } finally {
      clearTimeout(timer);
      stopEvidence();
      running.delete(request.callId);
      stopWatching();
      cursor.fade();
    }
    settling.add(request.callId);
    let changedAnything = true;
    try {
      changedAnything = await activity.waitForSettle(startedAt, before);
    } finally {
      stopObserving();
      settling.delete(request.callId);
    }
    if (unloading) return { kind: 'navigated' };
    if (changedAnything || !lastList || lastList.report !== report) report = await list();
    lastReportJson = JSON.stringify(report);
    return { kind: 'output', output, report };
  };

  const errorOutput = (error: unknown, signal: AbortSignal, name: string): ToolOutput => {
    if (signal.aborted) {
      const reason = signal.reason as { name?: string; message?: string } | undefined;
      if (reason?.name === 'TimeoutError') return toolErrorOutput('timeout', `${reason.message}; it was cancelled.`);
      return cancelledInPage(name);
    }
    const e = describeThrown(error);
    const message = e.message;
    if (e.name === 'NotFoundError' || /^Tool not found/.test(message)) return toolErrorOutput('unknown_tool', message);
    // Native's words for a declarative form's values (and the polyfill's, which are the same).
    if (/invalid input|Failed to parse input|Invalid value (".*" )?for parameter|no such parameter for the tool/i.test(message))
      return toolErrorOutput('invalid_input', message);
    return toolErrorOutput('tool_threw', message || 'The tool failed without a message.');
  };

  return {
    list: async () => {
      const report = await list();
      lastReportJson = JSON.stringify(report);
      return report;
    },
    call: (request) => {
      const result = queue.then(() => runCall(request));
      queue = result.catch(() => undefined);
      return result;
    },
    cancel: (callId) => {
      const controller = running.get(callId);
      if (controller) controller.abort(new DOMException('The call was cancelled', 'AbortError'));
      else cancelledEarly.add(callId);
    },
  };
}

/**
 * The tools within the limits on one tool's weight (MAX_TOOL_BYTES, in characters here: the router counts UTF-8
 * bytes) and on all of a frame's, in order; how many were left out. Schemas are measured only up to the limit.
 */
function withinToolLimits(tools: FrameTool[]): { kept: FrameTool[]; oversized: number } {
  const kept: FrameTool[] = [];
  let total = 0;
  for (const tool of tools) {
    const weight = tool.name.length + (tool.title?.length ?? 0) + tool.description.length + jsonSizeUpTo(tool.inputSchema, MAX_TOOL_BYTES);
    if (weight > MAX_TOOL_BYTES || total + weight > TOOL_CHARS_PER_FRAME) continue;
    total += weight;
    kept.push(tool);
  }
  return { kept, oversized: tools.length - kept.length };
}

/** The call's input as an object, or a message saying why it is not one. */
function toInputObject(input: unknown): Record<string, unknown> | string {
  let value = input;
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'The input must be a JSON object; got text that is not JSON.';
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `The input must be a JSON object; got ${Array.isArray(value) ? 'an array' : typeof value}.`;
  }
  return value as Record<string, unknown>;
}

/** Whether a native tool entry belongs to this window (one that names no window is taken as this frame's). */
function ownedBy(raw: unknown, win: Window): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const owner = toolOwnerWindow(raw);
  return owner === undefined || owner === win;
}

/**
 * Calls `then` once native's own form named `name` runs and waits for the person: at its `toolactivated`, the form
 * matches `:tool-form-active` (the browser's pseudo-class, read in this world) and has no toolautosubmit. Returns
 * what stops listening.
 */
function whenNativeFormWaits(native: NativeModelContext, form: HTMLFormElement, name: string, then: () => void): () => void {
  const onActivated = (event: Event) => {
    if ((event as Event & { toolName?: unknown }).toolName !== name) return;
    let running = false;
    try {
      running = form.matches(':tool-form-active');
    } catch {
      // A browser without the pseudo-class has no native declarative forms.
    }
    if (running && !form.hasAttribute('toolautosubmit')) then();
  };
  native.addEventListener('toolactivated', onActivated);
  return () => native.removeEventListener('toolactivated', onActivated);
}
