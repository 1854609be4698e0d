/**
 * The router's record of every tab (lib/background/create-tool-router.ts): each frame's last report, kept in
 * session storage (a service worker can stop at any time), the model-facing names given out, which frames the page
 * delegated tools to, and whether someone watches the tab. It builds the tab's snapshot, keeps the toolbar badge at
 * the tab's tool count and pushes a watched tab's snapshot to the agent host when it changes.
 */
import { sendMessage } from '../messaging/channel';
import type { BridgeChannel } from '../messaging/bridge-messages';
import { assignToolNames, toolIdentityKey } from '../webmcp/to-model-facing-names';
import type { FrameSender } from './attest-frame-sender';
import { createFrameDelegation } from './create-frame-delegation';
import { createSnapshotPush } from './create-snapshot-push';
import { createTabWriteQueue } from './create-tab-write-queue';
import { createWatchedTabs } from './create-watched-tabs';
import type { ToolRouterPorts } from './tool-router-ports';
import { buildTabSnapshot, selectTools } from './build-tab-snapshot';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import { admittedFrameIds, isSelfOrigin, markNeedsDelegation, type StoredFrame, type TabState } from './tab-state';

const key = (tabId: number) => `bridge:tab:${tabId}`;

/** The tab registry's ports: the router's, less what only calls need. */
type TabRegistryPorts = Pick<
  ToolRouterPorts,
  'store' | 'sendToFrame' | 'setBadge' | 'notifyHost' | 'loadBridge' | 'findFrames' | 'delegationWaitMs'
>;

/** What the router does with its tabs. */
interface TabRegistry {
  /** The tab's state, from memory or session storage. */
  load(tabId: number): Promise<TabState>;
  /**
   * Records a frame's report (undefined: the frame's document is gone); `seenOrigin`: a new document's origin;
   * `needsDelegation`: what a new document said of its ancestors (TabState.needsDelegation).
   */
  setFrame(tabId: number, frameId: number, report: StoredFrame | undefined, seenOrigin?: string, needsDelegation?: boolean): Promise<void>;
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
  /** The frames of the tab that may use tools by the verdicts kept now, with their attested origins. */
  allowedFrames(tabId: number): Promise<{ frameId: number; origin: string }[]>;
  /** The tab started to navigate: if its top frame then announces a new document, the old page's frames go. */
  newTopDocument(tabId: number): Promise<void>;
  /** Whether anyone watches the tab; one storage read per service-worker life, not one per tab. */
  isWatched(tabId: number): Promise<boolean>;
  /** The tab closed. */
  forget(tabId: number): Promise<void>;
}

/** Creates the registry. */
export function createTabRegistry(ports: TabRegistryPorts): TabRegistry {
  const tabs = new Map<number, TabState>();
  const loading = new Map<number, Promise<TabState>>();
  const listeners = new Set<(tabId: number) => void>();
  const writes = createTabWriteQueue();

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
    if (state.watched) pushes.schedule(tabId);
  };

  const pushes = createSnapshotPush((tabId) => {
    const latest = tabs.get(tabId);
    if (latest?.watched) ports.notifyHost?.({ type: 'host/tools-changed', tabId, snapshot: snapshotOf(tabId, latest) });
  });
  const watched = createWatchedTabs(ports.store);

  /** Starts watching a tab: the whole bridge goes into every frame it has now, and into each document it loads. */
  const watch = (tabId: number, state: TabState) => {
    if (state.watched) return;
    state.watched = true;
    save(tabId, state);
    void watched.remember(tabId, true).catch(() => undefined);
    void ports.loadBridge?.(tabId).catch(() => undefined);
  };

  const delegation = createFrameDelegation({
    // Every frame asked has a bridge by now (loadEveryFrame).
    askOffers: async (tabId, frameId) => {
      return sendMessage<BridgeChannel, 'bridge/offer-delegation'>(
        (m) => ports.sendToFrame(tabId, frameId, m),
        'bridge/offer-delegation',
        {},
      );
    },
    frames: async (tabId) => {
      const state = await load(tabId);
      return Object.fromEntries(
        Object.entries(state.seen).map(([id, origin]) => [Number(id), { origin, needsDelegation: state.needsDelegation?.[id] === true }]),
      );
    },
    // Every frame of the tab gets the bridge, so a parent that has no tools of its own can post its tokens; only the
    // frames without one are loaded (a flooding page's frames are not loaded again and again).
    loadEveryFrame: async (tabId) => {
      const frames = (await ports.findFrames?.(tabId).catch(() => undefined)) ?? [];
      const bridgeless = frames.filter((frame) => !frame.hasBridge);
      await Promise.all(bridgeless.map((frame) => ports.loadBridge?.(tabId, frame).catch(() => undefined)));
      return frames.map((frame) => frame.frameId);
    },
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

  /** A new top document: every frame's tools, names, origins and delegations belonged to the one it replaced. */
  const clear = (tabId: number, state: TabState) => {
    state.frames = {};
    state.names = {};
    state.seen = {};
    state.delegated = {};
    state.needsDelegation = {};
    delegation.forgetTab(tabId);
    for (const frameKey of [...unanswered]) if (frameKey.startsWith(`${tabId}:`)) unanswered.delete(frameKey);
  };

  const setFrame = async (
    tabId: number,
    frameId: number,
    report: StoredFrame | undefined,
    seenOrigin?: string,
    needsDelegation?: boolean,
  ) => {
    const state = await load(tabId);
    // The top frame is gone (a call found no one there): so is everything the tab offered.
    if (frameId === 0 && report === undefined && seenOrigin === undefined) {
      clear(tabId, state);
    } else if (frameId === 0 && report === undefined && state.navigatedAt !== undefined) {
      // A new top document after the tab navigated: the old page's frames go; frames of the new page that reported
      // before the top's bridge loaded (it loads later when the top has no tools) stay.
      const since = state.navigatedAt;
      state.navigatedAt = undefined;
      const gone = Object.keys(state.frames)
        .map(Number)
        .filter((id) => id === 0 || (state.frames[id].at ?? 0) < since);
      const kept = new Set(
        Object.entries(state.frames)
          .filter(([id]) => !gone.includes(Number(id)))
          .flatMap(([id, frame]) =>
            frame.tools.map((tool) => toolIdentityKey({ frameId: Number(id), origin: frame.origin, name: tool.name })),
          ),
      );
      for (const id of gone) {
        delete state.frames[id];
        delete state.seen[id];
        delete state.delegated[id];
        delete state.needsDelegation?.[id];
        unanswered.delete(`${tabId}:${id}`);
        delegation.forgetFrame(tabId, id);
      }
      state.names = Object.fromEntries(Object.entries(state.names).filter(([identity]) => kept.has(identity)));
    } else if (report === undefined) {
      delete state.frames[frameId];
      if (seenOrigin !== undefined) {
        // A new document in this frame: its delegation is checked afresh.
        delete state.delegated[frameId];
        unanswered.delete(`${tabId}:${frameId}`);
        delegation.forgetFrame(tabId, frameId);
      }
    } else {
      state.frames[frameId] = { ...report, at: Date.now() };
      rename(state);
    }
    if (seenOrigin !== undefined) state.seen[frameId] = seenOrigin;
    if (needsDelegation !== undefined) markNeedsDelegation(state, frameId, needsDelegation);
    save(tabId, state);
    // A frame now known may be the missing link of a decision under way.
    if (seenOrigin !== undefined) delegation.frameSeen(tabId);
    checkDelegation(tabId, frameId, state);
    // The top frame came to be known after its frames reported (the lazy bridge): those that waited for it are
    // checked now, instead of waiting for a report they may never send again.
    if (frameId === 0) for (const other of Object.keys(state.frames).map(Number)) if (other !== 0) checkDelegation(tabId, other, state);
  };

  const snapshot = async (tabId: number): Promise<TabToolSnapshot> => snapshotOf(tabId, await load(tabId));

  const snapshotOf = buildTabSnapshot;

  return {
    load,
    setFrame,
    watch,
    snapshot,
    snapshotOf,
    listeners,
    presentDelegationToken: (sender, token) => delegation.present(sender, token),
    async mayUseTools(sender) {
      const { tabId, frameId } = sender;
      const frameKey = `${tabId}:${frameId}`;
      const state = await load(tabId);
      // The frame asks right after its bridge announced it (frame/ready): its origin is the attested one either way.
      if (state.seen[frameId] === undefined && sender.origin !== undefined) state.seen[frameId] = sender.origin;
      // Only a document that cannot vouch for its ancestors asks (lib/webmcp/same-origin-ancestry.ts): one of the
      // top's origin is checked as the others are.
      markNeedsDelegation(state, frameId, true);
      if (isSelfOrigin(state, frameId)) return true;
      if (state.delegated[frameId] !== undefined && !unanswered.has(frameKey)) return state.delegated[frameId];
      const origin = state.seen[frameId];
      const allowed = await delegation.decide(tabId, frameId);
      const now = await load(tabId);
      // The verdict is kept for the frame's tools too, unless the frame has another document by now.
      if (allowed !== undefined && now.seen[frameId] === origin) {
        unanswered.delete(frameKey);
        now.delegated[frameId] = allowed;
        rename(now);
        save(tabId, now);
      }
      return allowed === true;
    },
    async allowedFrames(tabId) {
      const state = await load(tabId);
      return Object.entries(state.seen)
        .map(([id, origin]) => ({ frameId: Number(id), origin }))
        .filter(({ frameId }) => isSelfOrigin(state, frameId) || state.delegated[frameId] === true)
        .sort((a, b) => a.frameId - b.frameId);
    },
    isWatched: (tabId) => watched.has(tabId),
    async newTopDocument(tabId) {
      // Only a tab the router knows has anything to forget: an unknown one costs no storage read. Nothing goes yet:
      // a same-document navigation looks the same from here, so the top frame's next document decides (setFrame).
      const state = tabs.get(tabId) ?? ((await watched.has(tabId)) ? await load(tabId) : undefined);
      if (state) state.navigatedAt = Date.now();
    },
    async forget(tabId) {
      void watched.remember(tabId, false).catch(() => undefined);
      tabs.delete(tabId);
      writes.forget(tabId);
      for (const frameKey of [...unanswered]) if (frameKey.startsWith(`${tabId}:`)) unanswered.delete(frameKey);
      delegation.forgetTab(tabId);
      await ports.store.remove([key(tabId)]);
    },
  };
}
