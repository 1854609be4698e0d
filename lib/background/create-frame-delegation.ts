/**
 * Decides whether a frame that is not same-origin with its tab's top may serve tools: native Chromium refuses them
 * unless the page delegates the `tools` feature down the frame tree (allow-tools.ts), and the polyfill must agree.
 *
 * Nothing here believes a frame about itself. On demand (a frame reported tools), every known frame of the tab is
 * asked for one-time tokens, which its content script posts into each of its child frames (offer-tools-delegation.ts).
 * A child hands its token back (listen-for-tools-delegation.ts); the browser attests who presents it. A token offered
 * by parent P and presented by frame X proves "X sits in P's element with this allow attribute". X may use tools when
 * that attribute allows X's attested origin, and P may use them itself (top, same-origin with the top, or delegated
 * in turn). The policy is inherited, so the whole chain of ancestors counts, and a parent with no tools of its own
 * has no bridge to post tokens with: a decision loads the bridge into every frame of the tab first (as a watched
 * tab's frames all have it), then asks each.
 */
import type { DelegationOffer } from '../messaging/router-messages';
import { allowsTools } from '../webmcp/allows-tools';
import type { FrameSender } from './attest-frame-sender';

interface FrameDelegationPorts {
  /** Asks one frame to post tokens into its child frames; answers with its offers (untrusted shape). */
  askOffers(tabId: number, frameId: number): Promise<unknown>;
  /** The tab's known frames, by frame id (0 = top): attested origins, and whether one said it needs delegation. */
  frames(tabId: number): Promise<Record<number, KnownFrame>>;
  /** Loads the bridge into every frame of the tab (each then announces itself); the frame ids it reached. */
  loadEveryFrame(tabId: number): Promise<readonly number[]>;
  /**
   * How long a decision waits for tokens to come back, once every frame was asked, before it says "no answer yet"
   * (default 3 s).
   */
  waitMs?: number;
}

interface FrameDelegation {
  /**
   * Whether the frame may serve tools (true for the top and frames same-origin with it); undefined when no answer
   * came back in time (a busy or silent parent), so a later report may ask again.
   */
  decide(tabId: number, frameId: number): Promise<boolean | undefined>;
  /** A frame of the tab announced a new document: a decision waiting for its origin may go on. */
  frameSeen(tabId: number): void;
  /**
   * A frame presents a token (the browser attests the sender). True when it matched a token a parent offered, so a
   * frame's parent is known now.
   */
  present(sender: FrameSender, token: unknown): boolean;
  /** The frame has a new document: what was learnt about it no longer holds. */
  forgetFrame(tabId: number, frameId: number): void;
  forgetTab(tabId: number): void;
}

/** What the tab registry knows of a frame. */
interface KnownFrame {
  /** Attested by the browser. */
  origin: string;
  /**
   * The frame is of the top's origin but said it needs delegation all the same (lib/background/create-tab-registry.ts,
   * TabState.needsDelegation).
   */
  needsDelegation: boolean;
}

interface Offer extends DelegationOffer {
  tabId: number;
  parentFrameId: number;
  at: number;
}

const TOKEN_TTL_MS = 30_000;

/** Creates the delegation tracker. */
export function createFrameDelegation(ports: FrameDelegationPorts): FrameDelegation {
  const waitMs = ports.waitMs ?? 3_000;
  const offered = new Map<string, Offer>();
  const presented = new Map<string, { sender: FrameSender; at: number }>();
  /** What a parent offered each child: `${tabId}:${frameId}` → the offer its token came from. */
  const parents = new Map<string, Offer>();
  const matchWaiters = new Set<{ tabId: number; wake: () => void }>();
  const rounds = new Map<number, Promise<void>>();
  const wakeTab = (tabId: number) => {
    for (const waiter of [...matchWaiters]) if (waiter.tabId === tabId) waiter.wake();
  };

  const expire = () => {
    const now = Date.now();
    for (const [token, offer] of offered) if (now - offer.at > TOKEN_TTL_MS) offered.delete(token);
    for (const [token, p] of presented) if (now - p.at > TOKEN_TTL_MS) presented.delete(token);
  };

  /** Pairs an offered token with its presenter; true when that taught which parent a frame sits in. */
  const match = (token: string): boolean => {
    const offer = offered.get(token);
    const presenter = presented.get(token);
    if (!offer || !presenter) return false;
    offered.delete(token);
    presented.delete(token);
    const { sender } = presenter;
    // A token counts once, in its own tab, and never for the frame that offered it.
    if (sender.tabId !== offer.tabId || sender.frameId === offer.parentFrameId) return false;
    parents.set(`${sender.tabId}:${sender.frameId}`, offer);
    wakeTab(sender.tabId);
    return true;
  };

  /** One request for offers to every frame of the tab (concurrent decisions share it). */
  const round = (tabId: number): Promise<void> => {
    let pending = rounds.get(tabId);
    if (!pending) {
      pending = (async () => {
        expire();
        // Every frame gets the bridge first, so that each child listens before its parent posts the token.
        const reached = await ports.loadEveryFrame(tabId);
        // The top frame is always asked: it may be out of reach of the load above and still answer.
        const frameIds = [...new Set([0, ...reached, ...Object.keys(await ports.frames(tabId)).map(Number)])];
        await Promise.all(
          frameIds.map(async (parentFrameId) => {
            const answer = await ports.askOffers(tabId, parentFrameId).catch(() => undefined);
            for (const offer of Array.isArray(answer) ? answer.slice(0, 64) : []) {
              if (!isOffer(offer)) continue;
              offered.set(offer.token, { token: offer.token, allow: offer.allow, src: offer.src, tabId, parentFrameId, at: Date.now() });
              match(offer.token);
            }
          }),
        );
      })().finally(() => rounds.delete(tabId));
      rounds.set(tabId, pending);
    }
    return pending;
  };

  /**
   * true / false once the chain up to a frame that needs no delegation is known; undefined while a link is missing
   * (no parent's token presented yet, or the parent's origin not known yet).
   */
  const verdict = (tabId: number, frameId: number, frames: Record<number, KnownFrame>, seen = new Set<number>()): boolean | undefined => {
    if (frameId === 0) return true;
    const frame = frames[frameId];
    if (frame === undefined || seen.has(frameId)) return false;
    if (!frame.needsDelegation && frame.origin !== 'null' && frame.origin === frames[0]?.origin) return true;
    seen.add(frameId);
    const offer = parents.get(`${tabId}:${frameId}`);
    if (!offer) return undefined;
    const parent = frames[offer.parentFrameId];
    if (parent === undefined) return undefined;
    if (!allowsTools(offer.allow, offer.src, frame.origin, parent.origin)) return false;
    return verdict(tabId, offer.parentFrameId, frames, seen);
  };

  const nextMatch = (tabId: number, deadline: number) =>
    new Promise<void>((resolve) => {
      const waiter = {
        tabId,
        wake: () => {
          clearTimeout(timer);
          matchWaiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, Math.max(0, deadline - Date.now()));
      matchWaiters.add(waiter);
    });

  return {
    async decide(tabId, frameId) {
      const known = verdict(tabId, frameId, await ports.frames(tabId));
      if (known !== undefined) return known;
      // The wait is for the page's frames (a child handing its token back), so it starts once the extension's own
      // part of the round is done: loading the bridge into every frame can take seconds on a busy machine.
      await round(tabId);
      const deadline = Date.now() + waitMs;
      while (true) {
        const now = verdict(tabId, frameId, await ports.frames(tabId));
        if (now !== undefined) return now;
        if (Date.now() >= deadline) return undefined;
        await nextMatch(tabId, deadline);
      }
    },
    frameSeen: wakeTab,
    present(sender, token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 100) return false;
      expire();
      presented.set(token, { sender, at: Date.now() });
      return match(token);
    },
    forgetFrame(tabId, frameId) {
      parents.delete(`${tabId}:${frameId}`);
    },
    forgetTab(tabId) {
      for (const key of [...parents.keys()]) if (key.startsWith(`${tabId}:`)) parents.delete(key);
      for (const [token, offer] of offered) if (offer.tabId === tabId) offered.delete(token);
    },
  };
}

function isOffer(value: unknown): value is DelegationOffer {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as DelegationOffer;
  return (
    typeof v.token === 'string' &&
    v.token.length > 0 &&
    v.token.length <= 100 &&
    typeof v.allow === 'string' &&
    v.allow.length <= 2_000 &&
    typeof v.src === 'string' &&
    v.src.length <= 2_000
  );
}
