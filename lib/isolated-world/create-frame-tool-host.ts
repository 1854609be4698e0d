/**
 * The isolated content script's view of one frame's tools: it lists them (list-frame-tools.ts), reports changes
 * (coalesced and paced: create-report-pacer.ts), and runs calls one at a time (run-frame-call.ts) with a timeout,
 * the router's cancel, result normalisation, a size cap and the cursor. A call comes on the document's call line
 * (serve-frame-calls.ts), which gives it its signal and where its state goes.
 *
 * Everything that comes from the page (tool entries, results, errors) is treated as data.
 */
import type { FrameCallRequest, FrameCallResult, FrameCallUpdate, FrameReport } from '../messaging/router-messages';
import type { PageChannel } from '../webmcp/page-channel';
import { createReportPacer } from './create-report-pacer';
import { createSettleWatch } from './create-settle-watch';
import type { ToolCursor } from './create-tool-cursor';
import { listFrameTools, type NativeModelContext } from './list-frame-tools';
import { readPauseMs } from './read-pause-ms';
import { type FrameCallContext, runFrameCall } from './run-frame-call';

export type { NativeModelContext };
export type { FrameCallContext };

interface FrameToolHostOptions {
  win: Window & typeof globalThis;
  doc: Document;
  native?: NativeModelContext;
  /** The read of native's tools, if not `native.getTools()` (share-tool-reads.ts). */
  readNative?: () => Promise<unknown[]>;
  page?: PageChannel;
  cursor: ToolCursor;
  /**
   * Called with the frame's report when its tools or page changed (coalesced and paced: create-report-pacer.ts);
   * resolves with how long the router asks the frame to wait before its next report, if it says.
   */
  report: (report: FrameReport) => Promise<number | undefined> | void;
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
  /** Runs a call after the ones before it; `context` is the router's side of it (its cancel, where its state goes). */
  call(request: FrameCallRequest, context?: FrameCallContext): Promise<FrameCallResult>;
}

/** The longest a call waits for the tool changes it started, counted from when it resolved. */
const DEFAULT_SETTLE_CAP_MS = 1_500;

/** Creates the host and starts following tool changes. */
export function createFrameToolHost(options: FrameToolHostOptions): FrameToolHost {
  const { win, doc, native, readNative, page, cursor } = options;
  const settle = options.settle ?? { capMs: DEFAULT_SETTLE_CAP_MS };
  /** What the frame's last list said and when, what native's entries are, and what the router last heard. */
  const state = {
    nativeTools: new Map<string, unknown>(),
    lastList: undefined as { at: number; url: string; report: FrameReport } | undefined,
    lastReportJson: '',
    unloading: false,
    /** Not listening to native's toolchange while a report waits (create-report-pacer.ts, hear). */
    deaf: false,
    callsRunning: 0,
  };
  /** Calls running or settling: a document that goes away meanwhile was navigated by the call. */
  const inFlight = new Set<(update: FrameCallUpdate) => void>();
  let queue: Promise<unknown> = Promise.resolve();

  const list = async (): Promise<FrameReport> => {
    // Stamped before reading: a change during the read makes this list stale for the next call.
    const at = Date.now();
    const { report, nativeTools, framesRead, load } = await listFrameTools({ win, doc, native, readNative, page });
    // What the read cost the page decides when the next report may read again (read-pause-ms.ts).
    pacer.restAfterRead(readPauseMs(Date.now() - at, framesRead, load));
    // Swapped in whole: a call may be looking tools up while a list is in flight.
    state.nativeTools = nativeTools;
    state.lastList = { at, url: report.url, report };
    return report;
  };
  // Evidence that the page is still changing, for the wait after a call (create-settle-watch.ts).
  const activity = createSettleWatch({ win, doc, cursor, page, capMs: settle.capMs, list, isUnloading: () => state.unloading });

  // A burst of changes is one report, read when it goes out; a page that keeps changing is reported less often.
  const pacer = createReportPacer({
    firstDelayMs: options.debounceMs ?? 50,
    hear: (on) => hear(on),
    send: async () => {
      const report = await list();
      const json = JSON.stringify(report);
      if (json === state.lastReportJson) return false;
      state.lastReportJson = json;
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
  /**
   * Native dispatches a toolchange for every registration: a page that registers thousands of tools a second while
   * its report waits would cost a call into this world each time for nothing. So the frame stops listening while a
   * report waits, and listens again before it is read and whenever a call runs (the wait after a call counts the
   * changes it started: create-settle-watch.ts). A list read while not listening may be out of date: none is current.
   */
  const hear = (on: boolean) => {
    const deaf = !on && state.callsRunning === 0;
    if (!native || deaf === state.deaf) return;
    state.deaf = deaf;
    if (deaf) {
      native.removeEventListener('toolchange', changed);
    } else {
      native.addEventListener('toolchange', changed);
      state.lastList = undefined;
    }
  };
  native?.addEventListener('toolchange', changed);
  page?.onChanged(changed);
  win.addEventListener('pagehide', () => {
    state.unloading = true;
    for (const tell of [...inFlight]) tell({ state: 'navigating' });
    activity.stir();
  });

  const deps = {
    win,
    doc,
    ...(native ? { native } : {}),
    ...(page ? { page } : {}),
    cursor,
    activity,
    currentList: () => {
      if (state.deaf) return undefined;
      const last = state.lastList;
      return last && last.at > activity.lastChangeAt() && last.url === win.location.href ? last.report : undefined;
    },
    list,
    nativeTool: (name: string) => state.nativeTools.get(name),
    isLastList: (report: FrameReport) => state.lastList?.report === report,
    reported: (report: FrameReport) => {
      state.lastReportJson = JSON.stringify(report);
    },
    isUnloading: () => state.unloading,
    inFlight,
  };

  return {
    list: async () => {
      const report = await list();
      state.lastReportJson = JSON.stringify(report);
      return report;
    },
    call: (request, context) => {
      state.callsRunning++;
      hear(true);
      const result = queue.then(() => runFrameCall(deps, request, context));
      queue = result.catch(() => undefined);
      void queue.then(() => state.callsRunning--);
      return result;
    },
  };
}
