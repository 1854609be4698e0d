/**
 * One call in a frame (create-frame-tool-host.ts runs them one at a time): the tool looked up in the frame's list,
 * run natively or through the page's world with a time limit and the router's cancel (its line's signal), pointed
 * at by the cursor, its result refused when huge, normalised and capped, and the list after it read once the changes
 * it started have settled (create-settle-watch.ts).
 *
 * Everything that comes from the page (tool entries, results, errors) is treated as data.
 */
import type { ToolOutput } from '../agent/types';
import type { FrameCallRequest, FrameCallResult, FrameCallUpdate, FrameReport } from '../messaging/router-messages';
import { describeThrown, thrownMessage } from '../page-data/describe-thrown';
import { capToolOutput, MAX_RAW_RESULT_CHARS, resultRefused } from '../agent/cap-tool-output';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import type { PageChannel } from '../webmcp/page-channel';
import { cancelledBeforeStart, cancelledInPage, type ToolErrorCode, toolErrorOutput } from '../agent/tool-error-output';
import type { SettleWatch } from './create-settle-watch';
import type { ToolCursor } from './create-tool-cursor';
import { type NativeModelContext, toolForm } from './list-frame-tools';
import { normalizeToolResult } from './normalize-tool-result';
import { followMutations, pointAtForm } from './point-cursor';

/** The router's side of one call: its cancel, and where the call's state goes (the call line's answer context). */
export interface FrameCallContext {
  /** Aborted when the router cancels the call or its line closes. */
  signal?: AbortSignal;
  /** Tells the router the call's state (it waits for the person, its document is unloading). */
  update?(update: FrameCallUpdate): void;
}

/** What a call needs of its frame's host. */
interface FrameCallDeps {
  win: Window & typeof globalThis;
  doc: Document;
  native?: NativeModelContext;
  page?: PageChannel;
  cursor: ToolCursor;
  activity: SettleWatch;
  /** The last list read and when, if it is still current (nothing changed since); else undefined. */
  currentList(): FrameReport | undefined;
  /** Reads the list afresh. */
  list(): Promise<FrameReport>;
  /** The native entry a tool name runs, from the last list. */
  nativeTool(name: string): unknown;
  /** Whether the last list read is `report` (no list was read since). */
  isLastList(report: FrameReport): boolean;
  /** The list the router now has (the call's report says it): the next change report compares with it. */
  reported(report: FrameReport): void;
  isUnloading(): boolean;
  /** Calls running or settling, each by how it tells the router (the document's pagehide tells each it navigated). */
  inFlight: Set<(update: FrameCallUpdate) => void>;
}

/** Runs one call to its answer. */
export async function runFrameCall(
  deps: FrameCallDeps,
  request: FrameCallRequest,
  context: FrameCallContext = {},
): Promise<FrameCallResult> {
  const { win, doc, cursor, activity } = deps;
  const fail = (code: ToolErrorCode, message: string): FrameCallResult => ({ kind: 'output', output: toolErrorOutput(code, message) });
  // The last list is current unless the tools or the route changed since: a call then costs no extra round trip.
  let report = deps.currentList() ?? (await deps.list());
  const tool = report.tools.find((t) => t.name === request.name);
  if (!tool) {
    const names = report.tools.map((t) => t.name).join(', ') || 'none';
    return fail('unknown_tool', `No tool named "${request.name}" in this frame (tools here: ${names}).`);
  }
  const input = toInputObject(request.input);
  if (typeof input === 'string') return fail('invalid_input', input);
  // A cancel can overtake its call (still queued behind another, or still listing).
  if (context.signal?.aborted) return { kind: 'output', output: cancelledBeforeStart() };
  const controller = new AbortController();
  const onCancel = () => controller.abort(new DOMException('The call was cancelled', 'AbortError'));
  context.signal?.addEventListener('abort', onCancel, { once: true });
  const tell = (update: FrameCallUpdate) => context.update?.(update);
  deps.inFlight.add(tell);
  const form = tool.declarative ? toolForm(doc, tool.name) : undefined;
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
    tell({ state: 'awaiting-confirmation' });
  };
  let stopEvidence = () => {};
  if (form && tool.needsConfirmation) {
    if (!deps.nativeTool(request.name)) waitForPerson();
    else if (deps.native) stopEvidence = whenNativeFormWaits(deps.native, form, request.name, waitForPerson);
  }
  const startedAt = Date.now();
  const before = { url: win.location.href, names: new Set(report.tools.map((t) => t.name)) };
  const stopObserving = activity.observeMutations();
  let output: ToolOutput;
  let changedAnything = true;
  try {
    try {
      const raw = await execute(deps, request, controller.signal, input);
      if (raw === null || deps.isUnloading()) return { kind: 'navigated' };
      // A result of tens of MB is refused before it is parsed, normalised or cut (measuring stops at the limit).
      output =
        jsonSizeUpTo(raw, MAX_RAW_RESULT_CHARS) === Number.POSITIVE_INFINITY
          ? resultRefused(request.name)
          : capToolOutput(normalizeToolResult(raw), request.maxResultChars);
    } catch (error) {
      // A call whose document is going away failed because it navigated, not because the tool broke.
      if (deps.isUnloading()) return { kind: 'navigated' };
      output = errorOutput(error, controller.signal, request.name);
    } finally {
      clearTimeout(timer);
      stopEvidence();
      context.signal?.removeEventListener('abort', onCancel);
      stopWatching();
      cursor.fade();
    }
    try {
      changedAnything = await activity.waitForSettle(startedAt, before);
    } finally {
      stopObserving();
    }
  } finally {
    deps.inFlight.delete(tell);
  }
  if (deps.isUnloading()) return { kind: 'navigated' };
  if (changedAnything || !deps.isLastList(report)) report = await deps.list();
  deps.reported(report);
  return { kind: 'output', output, report };
}

/** Runs the tool: native's own, or the page world's through its channel; the signal cancels either. */
async function execute(
  deps: FrameCallDeps,
  request: FrameCallRequest,
  signal: AbortSignal,
  input: Record<string, unknown>,
): Promise<unknown> {
  signal.throwIfAborted();
  const { native, page } = deps;
  const nativeTool = deps.nativeTool(request.name);
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
}

/** A call that threw, in the extension's words: its time limit, the router's cancel, or the tool's own error. */
function errorOutput(error: unknown, signal: AbortSignal, name: string): ToolOutput {
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
