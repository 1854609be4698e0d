/**
 * The router's record of every tab (lib/background/create-tool-router.ts): each tab's state (tab-state.ts), kept in
 * session storage (a service worker can stop at any time), changed by the events of its frames. It keeps the
 * toolbar badge at the tab's tool count, tells subscribers, and pushes a watched tab's snapshot to the agent host
 * (create-snapshot-push.ts); the delegation verdicts are create-delegation-verdicts.ts's.
 */
import type { PageLimitKind, TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import { pageLabel, pageLimitNotice } from './page-limits';
import type { FrameSender } from './attest-frame-sender';
import { buildTabSnapshot, selectTools } from './build-tab-snapshot';
import { createDelegationVerdicts } from './create-delegation-verdicts';
import { createSnapshotPush } from './create-snapshot-push';
import { createTabStateStore } from './create-tab-state-store';
import { createTabWriteQueue } from './create-tab-write-queue';
import { createWatchedTabs } from './create-watched-tabs';
import type { FoundFrame } from './load-connector';
import {
  allowedFrames,
  clearTab,
  dropOldPage,
  markCrashed,
  markNeedsDelegation,
  readTabState,
  recordReport,
  replaceDocument,
  type StoredFrame,
  type TabState,
} from './tab-state';
import type { ToolRouterPorts } from './tool-router-ports';

/** The tab registry's ports: the router's, less what only calls need. */
type TabRegistryPorts = Pick<ToolRouterPorts, 'store' | 'sendToFrame' | 'setBadge' | 'notifyHost' | 'delegationWaitMs'> & {
  /**
   * Loads the bridge into the tab's frames that lack it and that the router hears (load-missing-bridges.ts), and
   * resolves with every frame it found. Without it (tests of the registry alone) frames are assumed to have their
   * bridge.
   */
  loadMissingBridges?(tabId: number): Promise<readonly FoundFrame[]>;
};

/** What the router does with its tabs. */
export interface TabRegistry {
  /** The tab's state, from memory or session storage. */
  load(tabId: number): Promise<TabState>;
  /** A frame reported its tools (the report attested and trimmed, attest-frame-report.ts). */
  frameReported(tabId: number, frameId: number, report: StoredFrame): Promise<void>;
  /**
   * A new document announced itself in a frame (frame/ready), of this attested origin; `needsDelegation`: what it
   * said of its ancestors (TabState.needsDelegation).
   */
  documentStarted(tabId: number, frameId: number, origin: string, needsDelegation: boolean): Promise<void>;
  /** A frame other than the top is gone (a call found no one there): its tools go. */
  frameGone(tabId: number, frameId: number): Promise<void>;
  /** The top frame is gone (a call found no one there): so is everything the tab offered. */
  topFrameGone(tabId: number): Promise<void>;
  /** The tab's renderer crashed (TabState.crashed): everything the tab offered is gone, and its snapshot says why. */
  topFrameCrashed(tabId: number): Promise<void>;
  /** Starts watching the tab (see TabState.watched). */
  watch(tabId: number, state: TabState): void;
  snapshot(tabId: number): Promise<TabToolSnapshot>;
  snapshotOf(tabId: number, state: TabState): TabToolSnapshot;
  /** Called with a tab id whenever that tab changes. */
  listeners: Set<(tabId: number) => void>;
  /** A frame presents the token its parent posted (the delegation check, create-frame-delegation.ts). */
  presentDelegationToken(sender: FrameSender, token: unknown): void;
  /**
   * Whether the frame the browser attests may use tools (the `tools` permissions policy): the verdict the router
   * keeps for its tools, decided now if it has none. No answer in time counts as no.
   */
  mayUseTools(sender: FrameSender): Promise<boolean>;
  /** The frame itself asks whether it may use tools (frame/may-use-tools): it said it cannot vouch for its ancestors. */
  frameAsksMayUseTools(sender: FrameSender): Promise<boolean>;
  /** The frames of the tab that may use tools by the verdicts kept now, with their attested origins. */
  allowedFrames(tabId: number): Promise<{ frameId: number; origin: string }[]>;
  /** The tab started to navigate: if its top frame then announces a new document, the old page's frames go. */
  newTopDocument(tabId: number): Promise<void>;
  /** Whether anyone watches the tab; one storage read per service-worker life, not one per tab. */
  isWatched(tabId: number): Promise<boolean>;
  /** The tab's page met a limit (create-page-budget.ts): its notice is kept, and saved only when new. */
  noteLimit(tabId: number, kind: PageLimitKind): Promise<void>;
  /** The tab closed. */
  forget(tabId: number): Promise<void>;
}

/** Creates the registry. */
export function createTabRegistry(ports: TabRegistryPorts): TabRegistry {
  const tabs = new Map<number, TabState>();
  const loading = new Map<number, Promise<TabState>>();
  const listeners = new Set<(tabId: number) => void>();
  const writes = createTabWriteQueue();
  const stored = createTabStateStore(ports.store);

  const load = (tabId: number): Promise<TabState> => {
    const known = tabs.get(tabId);
    if (known) return Promise.resolve(known);
    let pending = loading.get(tabId);
    if (!pending) {
      pending = stored.read(tabId).then((record) => {
        const state = readTabState(tabs.get(tabId) ?? record);
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
      if (latest) await stored.write(tabId, latest);
    });
    const count = selectTools(state).tools.length;
    ports.setBadge(tabId, count > 0 ? String(count) : '');
    for (const listener of listeners) listener(tabId);
    if (state.watched) pushes.schedule(tabId);
  };

  const snapshotOf = buildTabSnapshot;
  const pushes = createSnapshotPush((tabId) => {
    const latest = tabs.get(tabId);
    if (latest?.watched) ports.notifyHost?.({ type: 'host/tools-changed', tabId, snapshot: snapshotOf(tabId, latest) });
  });
  const watched = createWatchedTabs(ports.store);
  const verdicts = createDelegationVerdicts({ ...ports, load, save });

  /** Starts watching a tab: the whole bridge goes into the frames it has now, and into each document it loads. */
  const watch = (tabId: number, state: TabState) => {
    if (state.watched) return;
    state.watched = true;
    save(tabId, state);
    void watched.remember(tabId, true).catch(() => undefined);
    void ports.loadMissingBridges?.(tabId).catch(() => undefined);
  };

  return {
    load,
    watch,
    snapshot: async (tabId) => snapshotOf(tabId, await load(tabId)),
    snapshotOf,
    listeners,
    async frameReported(tabId, frameId, report) {
      const state = await load(tabId);
      recordReport(state, frameId, report, Date.now());
      save(tabId, state);
      // A frame now known may be the missing link of a decision under way; one with tools may need its own.
      verdicts.frameSeen(tabId);
      verdicts.check(tabId, frameId, state);
      if (frameId === 0) verdicts.checkBelowTop(tabId, state);
    },
    async documentStarted(tabId, frameId, origin, needsDelegation) {
      const state = await load(tabId);
      // What another site was refused is not this one's.
      if (frameId === 0 && state.seen[0] !== undefined && state.seen[0] !== origin) delete state.limits;
      // 1. What the frame's old document offered goes; a new top after the tab navigated takes the old page's frames.
      const gone = frameId === 0 && state.navigatedAt !== undefined ? dropOldPage(state) : [replaceDocument(state, frameId)];
      for (const id of gone) verdicts.forgetFrame(tabId, id);
      // 2. The new document is seen, with what it said of its ancestors; a new top is a page again after a crash.
      state.seen[frameId] = origin;
      if (frameId === 0) delete state.crashed;
      markNeedsDelegation(state, frameId, needsDelegation);
      save(tabId, state);
      // 3. It may be the missing link of a decision under way; a top known at last lets its frames be checked.
      verdicts.frameSeen(tabId);
      if (frameId === 0) verdicts.checkBelowTop(tabId, state);
    },
    async frameGone(tabId, frameId) {
      const state = await load(tabId);
      delete state.frames[frameId];
      save(tabId, state);
    },
    async topFrameGone(tabId) {
      const state = await load(tabId);
      clearTab(state);
      verdicts.forgetTab(tabId);
      save(tabId, state);
    },
    async topFrameCrashed(tabId) {
      const state = await load(tabId);
      markCrashed(state);
      verdicts.forgetTab(tabId);
      save(tabId, state);
    },
    presentDelegationToken: (sender, token) => verdicts.present(sender, token),
    mayUseTools: (sender) => verdicts.mayUseTools(sender),
    frameAsksMayUseTools: (sender) => verdicts.frameAsks(sender),
    allowedFrames: async (tabId) => allowedFrames(await load(tabId)),
    isWatched: (tabId) => watched.has(tabId),
    async newTopDocument(tabId) {
      // Only a tab the router knows has anything to forget: an unknown one costs no storage read. Nothing goes yet:
      // a same-document navigation looks the same from here, so the top frame's next document decides.
      const state = tabs.get(tabId) ?? ((await watched.has(tabId)) ? await load(tabId) : undefined);
      if (state) state.navigatedAt = Date.now();
    },
    async noteLimit(tabId, kind) {
      const state = await load(tabId);
      if (state.limits?.[kind]) return;
      const top = state.frames[0];
      state.limits = { ...state.limits, [kind]: pageLimitNotice(kind, pageLabel(top?.page.title, top?.origin ?? state.seen[0])) };
      save(tabId, state);
    },
    async forget(tabId) {
      void watched.remember(tabId, false).catch(() => undefined);
      tabs.delete(tabId);
      writes.forget(tabId);
      verdicts.forgetTab(tabId);
      await stored.remove(tabId);
    },
  };
}
