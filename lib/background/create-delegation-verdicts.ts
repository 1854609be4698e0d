/**
 * The router's verdicts on which frames the page delegated tools to (lib/background/create-tab-registry.ts): a
 * frame that is not same-origin with the top and reported tools gets its delegation decided (create-frame-
 * delegation.ts), once per document; a frame asking whether it may use tools gets the kept verdict, or one decided
 * now. A verdict is kept in the tab's state (TabState.delegated), which is saved with it.
 */
import { sendMessage } from '../messaging/channel';
import type { ConnectorChannel } from '../messaging/router-messages';
import type { FrameSender } from './attest-frame-sender';
import { createFrameDelegation } from './create-frame-delegation';
import type { FoundFrame } from './load-connector';
import type { ToolRouterPorts } from './tool-router-ports';
import { isSelfOrigin, markNeedsDelegation, nameTools, type TabState } from './tab-state';

/** What the verdicts need: the tab's state and its saving, and the router's ports to reach the frames. */
interface DelegationVerdictsPorts extends Pick<ToolRouterPorts, 'sendToFrame' | 'delegationWaitMs'> {
  /** Loads the bridge where it is missing (load-missing-bridges.ts); resolves with every frame of the tab it found. */
  loadMissingBridges?(tabId: number): Promise<readonly FoundFrame[]>;
  /** The tab's state, from memory or session storage. */
  load(tabId: number): Promise<TabState>;
  /** The tab's state changed: it is saved, badged and pushed. */
  save(tabId: number, state: TabState): void;
}

/** The verdicts, as the registry uses them. */
interface DelegationVerdicts {
  /** A frame that is not same-origin with the top and has tools gets its delegation checked, once per document. */
  check(tabId: number, frameId: number, state: TabState): void;
  /**
   * The top frame came to be known after its frames reported (the lazy connector): those that waited for it are
   * checked now, instead of waiting for a report they may never send again.
   */
  checkBelowTop(tabId: number, state: TabState): void;
  /**
   * Whether the frame the browser attests may use tools (the `tools` permissions policy): the verdict kept for its
   * tools, decided now if there is none. No answer in time counts as no. What the frame said of its ancestors stays
   * as it said it: the router asks this of every frame whose bridge it loaded (the exposure relay's catching up).
   */
  mayUseTools(sender: FrameSender): Promise<boolean>;
  /**
   * The frame itself asks (frame/may-use-tools), which only a document that cannot vouch for its ancestors does
   * (lib/webmcp/same-origin-ancestry.ts): it is marked as needing delegation, then answered as {@link mayUseTools}.
   */
  frameAsks(sender: FrameSender): Promise<boolean>;
  /** A frame presents the token its parent posted. */
  present(sender: FrameSender, token: unknown): void;
  /** A frame of the tab announced a document: a decision waiting for its origin may go on. */
  frameSeen(tabId: number): void;
  /** The frame's document is gone: what was learnt about it no longer holds. */
  forgetFrame(tabId: number, frameId: number): void;
  forgetTab(tabId: number): void;
}

/** Creates the verdicts. */
export function createDelegationVerdicts(ports: DelegationVerdictsPorts): DelegationVerdicts {
  const { load, save } = ports;
  const delegation = createFrameDelegation({
    // Every frame asked has a bridge by now (loadEveryFrame).
    askOffers: async (tabId, frameId) => {
      return sendMessage<ConnectorChannel, 'bridge/offer-delegation'>(
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
    // Every frame of the tab the router hears gets the bridge, so a parent that has no tools of its own can post its
    // tokens; only the frames without one are loaded (a flooding page's frames are not loaded again and again).
    loadEveryFrame: async (tabId) => {
      const frames = (await ports.loadMissingBridges?.(tabId).catch(() => undefined)) ?? [];
      return frames.map((frame) => frame.frameId);
    },
    ...(ports.delegationWaitMs !== undefined ? { waitMs: ports.delegationWaitMs } : {}),
  });
  const deciding = new Set<string>();
  /**
   * Frames whose check got no answer in time: they serve nothing for now, and are decided again when a token of
   * their tab comes back late or they report again.
   */
  const unanswered = new Set<string>();
  const forgetUnanswered = (tabId: number) => {
    for (const frameKey of [...unanswered]) if (frameKey.startsWith(`${tabId}:`)) unanswered.delete(frameKey);
  };

  const check = (tabId: number, frameId: number, state: TabState) => {
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
        nameTools(now);
        save(tabId, now);
      })
      .finally(() => deciding.delete(frameKey));
  };

  /** {@link DelegationVerdicts.mayUseTools}; `asked`: the frame itself asked, so it cannot vouch for its ancestors. */
  const mayUseTools = async (sender: FrameSender, asked: boolean): Promise<boolean> => {
    const { tabId, frameId } = sender;
    const frameKey = `${tabId}:${frameId}`;
    const state = await load(tabId);
    // The frame asks right after its bridge announced it (frame/ready): its origin is the attested one either way.
    const announced = state.seen[frameId] !== undefined;
    if (!announced && sender.origin !== undefined) state.seen[frameId] = sender.origin;
    // Only a document that cannot vouch for its ancestors asks: one of the top's origin is checked as the others are.
    // So is one that has not announced itself yet: it has said nothing of its ancestors. Not a frame the router asks
    // about on its own: marking each of those sent every frame of the top's origin through a round of tokens (a
    // page of a hundred same-origin frames: five rounds, 505 messages to its frames and 320 back).
    if (asked || !announced) markNeedsDelegation(state, frameId, true);
    if (isSelfOrigin(state, frameId)) return true;
    if (state.delegated[frameId] !== undefined && !unanswered.has(frameKey)) return state.delegated[frameId];
    const origin = state.seen[frameId];
    const allowed = await delegation.decide(tabId, frameId);
    const now = await load(tabId);
    // The verdict is kept for the frame's tools too, unless the frame has another document by now.
    if (allowed !== undefined && now.seen[frameId] === origin) {
      unanswered.delete(frameKey);
      now.delegated[frameId] = allowed;
      nameTools(now);
      save(tabId, now);
    }
    return allowed === true;
  };

  return {
    check,
    checkBelowTop(tabId, state) {
      for (const other of Object.keys(state.frames).map(Number)) if (other !== 0) check(tabId, other, state);
    },
    mayUseTools: (sender) => mayUseTools(sender, false),
    frameAsks: (sender) => mayUseTools(sender, true),
    present(sender, token) {
      // A token that comes back after a decision gave up still counts: when it taught a frame's parent, the frames of
      // its tab still without an answer are decided again now (their verdict comes from the tokens, never from the
      // frame), instead of serving nothing until they happen to report again. A token that matched nothing (a frame
      // sending junk) starts nothing.
      if (!delegation.present(sender, token)) return;
      const waiting = [...unanswered].filter((frameKey) => frameKey.startsWith(`${sender.tabId}:`));
      if (waiting.length === 0) return;
      void load(sender.tabId).then((state) => {
        for (const frameKey of waiting) check(sender.tabId, Number(frameKey.split(':')[1]), state);
      });
    },
    frameSeen: (tabId) => delegation.frameSeen(tabId),
    forgetFrame(tabId, frameId) {
      unanswered.delete(`${tabId}:${frameId}`);
      delegation.forgetFrame(tabId, frameId);
    },
    forgetTab(tabId) {
      delegation.forgetTab(tabId);
      forgetUnanswered(tabId);
    },
  };
}
