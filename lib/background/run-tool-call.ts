/**
 * One call of the tool router (create-tool-router.ts), from the tab's snapshot to its output: checked against what
 * the person approved, asked of the frame that owns the tool on its document's request line (create-frame-lines.ts),
 * followed to the next document when it navigated (follow-navigation.ts, create-continuations.ts), and its result
 * refused, capped and its report taken as the frame's own report would be.
 */
import type { ToolCall, ToolOutput } from '../agent/types';
import type { ConnectorChannel, FrameCallResult, FrameCallUpdate } from '../messaging/router-messages';
import { FORM_WAITS_PROMPT } from '../messaging/router-messages';
import { sendMessage } from '../messaging/channel';
import { CAP_NOTE_ROOM, capToolOutput, MAX_RAW_RESULT_CHARS, resultRefused } from '../agent/cap-tool-output';
import { cancelledBeforeStart, cancelledInPage, toolErrorOutput } from '../agent/tool-error-output';
import { toolChange } from '../messaging/expected-tool';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { ToolCallOptions } from '../messaging/router-client';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import { attest, isFrameReport, trimToTabCaps } from './attest-frame-report';
import { continuedOutput, unfinishedOutput } from './continued-output';
import type { Continuations } from './create-continuations';
import type { FrameLines } from './create-frame-lines';
import type { PageBudget } from './create-page-budget';
import type { TabRegistry } from './create-tab-registry';
import type { NavigationFollower } from './follow-navigation';
import { dropOversizedTools, reportSize } from './limit-report';
import type { ToolRouterPorts } from './tool-router-ports';

/** A running call: the frame (and document) it runs in, the only one that may speak of it. */
export interface RunningCall {
  frameKey: string;
  documentId?: string;
}

/** What a call needs of the router: its parts, its limits and its running calls. */
interface CallDeps {
  ports: Pick<ToolRouterPorts, 'sendToFrame' | 'continuationTimeoutMs'>;
  registry: Pick<TabRegistry, 'snapshot' | 'load' | 'frameReported' | 'frameGone' | 'topFrameGone'>;
  navigation: NavigationFollower;
  continuations: Continuations;
  budget: Pick<PageBudget, 'dropHeld'>;
  lines: Pick<FrameLines, 'lineTo'>;
  /** Calls running now, by id (the continuation questions ask it). */
  running: Map<string, RunningCall>;
  callTimeoutMs: number;
  maxResultChars: number;
  maxReportBytes: number;
  /** The tab's top document (this one, when known) went away: whether the tab crashed (create-tool-router.ts). */
  checkCrashed(tabId: number, documentId: string | undefined): Promise<void>;
  /** A fresh call id. */
  nextCallId(): string;
}

/** Runs one call in the tab (the caller queues them, one at a time per tab). */
export async function runToolCall(deps: CallDeps, tabId: number, call: ToolCall, options: ToolCallOptions): Promise<ToolOutput> {
  if (options.signal?.aborted) return cancelledBeforeStart();
  const snap = await deps.registry.snapshot(tabId);
  const entry = snap.tools.find((t) => t.name === call.name);
  const changed = options.expect ? toolChange(call.name, options.expect, entry, call.input) : undefined;
  if (changed) return toolErrorOutput('tool_changed', changed);
  if (!entry) {
    const names = snap.tools.map((t) => t.name).join(', ') || 'none';
    return toolErrorOutput('unknown_tool', `No tool named "${call.name}" on this page. Available tools: ${names}.`);
  }
  const callId = deps.nextCallId();
  const frameKey = `${tabId}:${entry.frameId}`;
  const generation = deps.navigation.generation(frameKey);
  deps.running.set(callId, { frameKey, ...(entry.documentId ? { documentId: entry.documentId } : {}) });
  const followed = () => followNavigatedCall(deps, { tabId, entry, callId, generation }, call, options);
  // The frame that owns the tool, and only the document that registered it (Chrome), on that document's line.
  const line = deps.lines.lineTo({ tabId, frameId: entry.frameId, ...(entry.documentId ? { documentId: entry.documentId } : {}) });
  const waitsForPerson = entry.declarative === true && entry.needsConfirmation === true;
  const sent = line.ask(
    'bridge/call',
    {
      callId,
      name: entry.originalName,
      input: call.input,
      timeoutMs: options.timeoutMs ?? deps.callTimeoutMs,
      maxResultChars: deps.maxResultChars,
    },
    {
      ...(options.signal ? { signal: options.signal } : {}),
      // The frame's answer to a cancel is dropped: the call ends now, as cancelled.
      onUpdate: (update) => heardUpdate(deps, { callId, frameKey, waitsForPerson }, update, options),
    },
  );
  const outcome = sent.then(
    (result) => (result?.kind === 'navigated' ? followed() : takeResult(deps, tabId, entry, call.name, result)),
    async (error: unknown): Promise<ToolOutput> => {
      if (options.signal?.aborted && error === options.signal.reason) return cancelledInPage(call.name);
      if (await deps.navigation.navigatedAway(tabId, entry.frameId, callId, generation)) return followed();
      return frameGone(deps, tabId, entry, call.name, error);
    },
  );
  // The person's Stop ends the call at once, also while it follows a navigation (the line cancels it in the frame).
  let onAbort = () => {};
  const cancelled = new Promise<ToolOutput>((resolve) => {
    onAbort = () => resolve(cancelledInPage(call.name));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([outcome, cancelled]);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    endCall(deps, callId);
  }
}

/**
 * What the frame said of a running call, on its own document's line: only a form's call that waits for the person
 * may say it waits, and the words are the background's (a frame cannot put its own in the card).
 */
function heardUpdate(
  deps: CallDeps,
  running: { callId: string; frameKey: string; waitsForPerson: boolean },
  update: unknown,
  options: ToolCallOptions,
): void {
  const state = (update as Partial<FrameCallUpdate> | null)?.state;
  if (state === 'awaiting-confirmation' && running.waitsForPerson) {
    options.onState?.({ state: 'awaiting-confirmation', prompt: FORM_WAITS_PROMPT });
  }
  if (state === 'navigating') deps.navigation.callNavigating(running.callId, running.frameKey);
}

/**
 * A call that navigated returns what the next document says of itself, or, when its tool asked for a continuation
 * token, the result the next document resumes it with (create-continuations.ts).
 */
async function followNavigatedCall(
  deps: CallDeps,
  at: { tabId: number; entry: TabToolEntry; callId: string; generation: number },
  call: ToolCall,
  options: ToolCallOptions,
): Promise<ToolOutput> {
  const { navigation, continuations, maxResultChars } = deps;
  const next = navigation.waitForReport(at.tabId, at.entry.frameId, at.generation);
  if (!continuations.has(at.callId)) return navigation.navigatedOutput(await next, call.name);
  const waitMs = options.timeoutMs ?? deps.ports.continuationTimeoutMs ?? deps.callTimeoutMs;
  const continued = await continuations.wait(at.callId, waitMs);
  if (continued) return continuedOutput(continued.output, continued.url, call.name, maxResultChars + CAP_NOTE_ROOM);
  return unfinishedOutput(call.name, waitMs, navigation.navigatedOutput(await next, call.name));
}

/** The frame's answer: refused when huge, capped, and the list it brought taken in as its report. */
async function takeResult(deps: CallDeps, tabId: number, entry: TabToolEntry, name: string, result: FrameCallResult): Promise<ToolOutput> {
  if (result?.kind !== 'output') {
    return toolErrorOutput('frame_gone', `The frame that owned "${name}" did not answer (it may have been reloaded).`);
  }
  // The frame caps its results, but a compromised one could send anything: a huge one is refused unread.
  if (jsonSizeUpTo(result.output, MAX_RAW_RESULT_CHARS) === Number.POSITIVE_INFINITY) return resultRefused(name);
  const owner = (await deps.registry.load(tabId)).frames[entry.frameId];
  const claimed = result.report;
  if (claimed && owner && reportSize(claimed, deps.maxReportBytes) <= deps.maxReportBytes && isFrameReport(claimed)) {
    // A report the budget holds from before the call is older than this one: it must not overwrite it later.
    deps.budget.dropHeld({ tabId, frameId: entry.frameId });
    const report = trimToTabCaps(dropOversizedTools(attest(claimed, { tabId, ...owner, frameId: entry.frameId }), claimed));
    // Most calls change nothing: then nothing is written, badged or pushed.
    const { at: _storedAt, ...stored } = owner;
    if (JSON.stringify(report) !== JSON.stringify(stored)) await deps.registry.frameReported(tabId, entry.frameId, report);
  }
  // The cap holds here too.
  return capToolOutput(result.output, deps.maxResultChars + CAP_NOTE_ROOM);
}

/** The call's document is gone and did not navigate: the frame (or the tab's page) is forgotten. */
async function frameGone(deps: CallDeps, tabId: number, entry: TabToolEntry, name: string, error: unknown): Promise<ToolOutput> {
  await (entry.frameId === 0 ? deps.registry.topFrameGone(tabId) : deps.registry.frameGone(tabId, entry.frameId));
  // A call can be the first to find a page that crashed (its Port's news lost with a stopped service worker).
  if (entry.frameId === 0) await deps.checkCrashed(tabId, entry.documentId);
  return toolErrorOutput('frame_gone', `The frame that owned "${name}" is gone (${String((error as Error)?.message ?? error)}).`);
}

/** The call is over: its state goes, and a resumeTool callback still running on the next page is aborted. */
function endCall(deps: CallDeps, callId: string): void {
  deps.running.delete(callId);
  deps.navigation.endCall(callId);
  // Nothing of the run acts on the page any more, so its signal aborts (and whatever it returns is refused:
  // create-continuations.ts).
  const resuming = deps.continuations.end(callId);
  if (resuming) {
    void sendMessage<ConnectorChannel, 'bridge/cancel-resume'>(
      (message) => deps.ports.sendToFrame(resuming.tabId, resuming.frameId, message, resuming.documentId),
      'bridge/cancel-resume',
      { token: resuming.token },
    ).catch(() => undefined);
  }
}
