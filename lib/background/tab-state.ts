/**
 * A tab's state as the router keeps it (lib/background/create-tab-registry.ts): each frame's last report, the
 * model-facing names given out, the attested origins, and which frames may serve tools; and what each event of a
 * frame (a report, a new document, a new top document) does to it. Pure: the registry loads, saves and tells.
 */
import type { FrameReport } from '../messaging/router-messages';
import type { PageLimitKind, PageLimitNotice } from '../messaging/tab-tool-snapshot';
import { assignToolNames, toolIdentityKey } from '../agent/to-model-facing-names';
import { MAX_GONE_TOOL_NAMES_PER_TAB } from './page-limits';

/** A frame's report as stored: its URL and origin are the browser's attestation, never the frame's claim. */
export interface StoredFrame extends FrameReport {
  documentId?: string;
  /** When the router stored it (Date.now()): a report from before the tab's last navigation is the old page's. */
  at?: number;
  /** Tools this frame reported beyond what a whole tab may offer, cut on arrival (counted as dropped). */
  cut?: number;
}

export interface TabState {
  frames: Record<string, StoredFrame>;
  /**
   * Model-facing names given out in this tab, by tool identity (frame, origin, name). A name stays with its tool
   * while the top document lives, and is never handed to another tool, so a name the model saw earlier can only
   * ever reach the tool it meant (or none); of tools that went away, only the latest MAX_GONE_TOOL_NAMES_PER_TAB
   * names are kept (nameTools).
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
   * Frames of the top's origin that need the page's delegation all the same: their document found a frame of another
   * origin above it, or an `<iframe allow>` that takes tools away (it said so in frame/ready, or asked
   * frame/may-use-tools). The claim is believed because it can only take tools away; a frame that keeps quiet about
   * it gets no more than its origin's top document has anyway.
   */
  needsDelegation?: Record<string, true>;
  /**
   * Someone asked for this tab's tools (the panel, a run, a test): every document of the tab gets the whole bridge
   * from now on, and every change is pushed to the host with its snapshot.
   */
  watched?: boolean;
  /** Grows with every change: the host keeps the snapshot with the highest revision (pushes and answers race). */
  revision?: number;
  /**
   * When the tab last started to navigate (tabs.onUpdated loading; also for same-document navigations, which the
   * browser does not tell apart): if the top frame's bridge then announces a new document, every report from before
   * this is the old page's.
   */
  navigatedAt?: number;
  /** The top document went away and the browser says the page is not loaded (a crash): see markCrashed. */
  crashed?: true;
  /**
   * What the extension refused of this tab's page, by limit (lib/background/page-limits.ts): kept while the tab
   * shows the same site, for the panel's notice.
   */
  limits?: Partial<Record<PageLimitKind, PageLimitNotice>>;
}

/**
 * Whether a frame may serve tools without anyone's delegation: the top, and frames same-origin with it that did not
 * say they need it (TabState.needsDelegation).
 */
export function isSelfOrigin(state: TabState, frameId: number): boolean {
  if (frameId === 0) return true;
  if (state.needsDelegation?.[frameId]) return false;
  const top = state.seen[0] ?? state.frames[0]?.origin;
  const origin = state.seen[frameId] ?? state.frames[frameId]?.origin;
  return top !== undefined && top !== 'null' && origin === top;
}

/** Records what a frame's document said of its ancestors (the top has none). */
export function markNeedsDelegation(state: TabState, frameId: number, needed: boolean): void {
  if (frameId === 0) return;
  state.needsDelegation ??= {};
  if (needed) state.needsDelegation[frameId] = true;
  else delete state.needsDelegation[frameId];
}

/** The frames whose tools count, in frame-id order: same-origin with the top, or delegated `tools` by the page. */
export function admittedFrameIds(state: TabState): number[] {
  return Object.keys(state.frames)
    .map(Number)
    .filter((frameId) => isSelfOrigin(state, frameId) || state.delegated[frameId] === true)
    .sort((a, b) => a - b);
}

/** A stored tab's state (undefined: a tab not known yet), with the maps an older record lacks. */
export function readTabState(stored: TabState | undefined): TabState {
  const state = stored ?? { frames: {}, names: {}, seen: {}, delegated: {} };
  state.names ??= {};
  state.seen ??= {};
  state.delegated ??= {};
  return state;
}

/**
 * Names the tools of every admitted frame (see assignToolNames). Names of tools that went away are kept, so a tool
 * that comes back gets its name again and no other tool gets it, but at most MAX_GONE_TOOL_NAMES_PER_TAB of them:
 * past that the oldest are forgotten (a page churning thousands of distinct names would otherwise grow the tab's
 * state without bound). A forgotten name may be given again; a call the person approved still reaches only the
 * tool instance approved (expected-tool.ts).
 */
export function nameTools(state: TabState): void {
  const present = admittedFrameIds(state).flatMap((frameId) =>
    state.frames[frameId].tools.map((tool) => ({ frameId, origin: state.frames[frameId].origin, name: tool.name })),
  );
  state.names = forgetOldestGoneNames(assignToolNames(state.names, present), new Set(present.map(toolIdentityKey)));
}

/** `names` with at most MAX_GONE_TOOL_NAMES_PER_TAB entries not in `present`: the oldest given go first. */
function forgetOldestGoneNames(names: Record<string, string>, present: ReadonlySet<string>): Record<string, string> {
  const gone = Object.keys(names).filter((identity) => !present.has(identity));
  if (gone.length <= MAX_GONE_TOOL_NAMES_PER_TAB) return names;
  // Keys keep the order they were given in (identity keys are never integer-like: they hold '|').
  const forgotten = new Set(gone.slice(0, gone.length - MAX_GONE_TOOL_NAMES_PER_TAB));
  return Object.fromEntries(Object.entries(names).filter(([identity]) => !forgotten.has(identity)));
}

/**
 * A frame reported (the report attested, attest-frame-report.ts): kept with the time it came, its tools named, its
 * origin seen (a report's origin is the browser's, the same the frame's document was seen with).
 */
export function recordReport(state: TabState, frameId: number, report: StoredFrame, at: number): void {
  state.frames[frameId] = { ...report, at };
  nameTools(state);
  state.seen[frameId] = report.origin;
}

/**
 * A new document in a frame: the old one's tools and delegation verdict go (its verdict is checked afresh). Returns
 * the frame whose delegation the registry forgets.
 */
export function replaceDocument(state: TabState, frameId: number): number {
  delete state.frames[frameId];
  delete state.delegated[frameId];
  return frameId;
}

/**
 * A new top document after the tab navigated (TabState.navigatedAt): the old page's frames go, the top's included;
 * frames of the new page that reported before the top's bridge loaded (it loads later when the top has no tools)
 * stay, and so do their names. Returns the frames that went.
 */
export function dropOldPage(state: TabState): number[] {
  const since = state.navigatedAt ?? 0;
  state.navigatedAt = undefined;
  const gone = Object.keys(state.frames)
    .map(Number)
    .filter((id) => id === 0 || (state.frames[id].at ?? 0) < since);
  const kept = new Set(
    Object.entries(state.frames)
      .filter(([id]) => !gone.includes(Number(id)))
      .flatMap(([id, frame]) => frame.tools.map((tool) => toolIdentityKey({ frameId: Number(id), origin: frame.origin, name: tool.name }))),
  );
  for (const id of gone) {
    delete state.frames[id];
    delete state.seen[id];
    delete state.delegated[id];
    delete state.needsDelegation?.[id];
  }
  state.names = Object.fromEntries(Object.entries(state.names).filter(([identity]) => kept.has(identity)));
  return gone;
}

/** The top frame is gone: every frame's tools, names, origins and delegations belonged to its document. */
export function clearTab(state: TabState): void {
  state.frames = {};
  state.names = {};
  state.seen = {};
  state.delegated = {};
  state.needsDelegation = {};
}

/**
 * The tab's renderer crashed (its top document went with no navigation, and the browser shows no page there): what
 * the page offered is gone, and the tab says so until a new top document starts.
 */
export function markCrashed(state: TabState): void {
  clearTab(state);
  state.crashed = true;
}

/** The frames that may use tools by the verdicts kept now, with their attested origins, in frame-id order. */
export function allowedFrames(state: TabState): { frameId: number; origin: string }[] {
  return Object.entries(state.seen)
    .map(([id, origin]) => ({ frameId: Number(id), origin }))
    .filter(({ frameId }) => isSelfOrigin(state, frameId) || state.delegated[frameId] === true)
    .sort((a, b) => a.frameId - b.frameId);
}
