/**
 * Tool continuations in the background (lib/page-world/tool-continuations.ts is the page's half): the tokens a running
 * call's tool asks for, the call's wait for its result after its document navigated, and the next document's
 * resume. Every rule is checked here, against the sender the browser attests (docs/security.md, "Tool
 * continuations"):
 * - a token is minted only for the call running in the asking frame (same tab, frame and, where the browser gives
 *   one, document), and it is bound to that tab, that frame and the frame's attested origin;
 * - it is taken back (claimed) only from that tab, that frame and that origin, once: a claim uses it up, and only
 *   the document that claimed it may deliver the result;
 * - it dies with its call: the call ended, was stopped, or waited longer than its limit; a callback that the next
 *   document runs for it by then is told to stop (its signal aborts), and nothing it returns is taken.
 * A token is a random UUID, so it cannot be guessed; it is not a secret from the page that asked for it, which is
 * the party it binds.
 */
import type { ToolOutput } from '../agent/types';
import type { FrameSender } from './attest-frame-sender';

interface Continuation {
  token: string;
  callId: string;
  tabId: number;
  frameId: number;
  origin: string;
  /** The document that claimed it (its id where the browser gives one), and where it is. */
  claimedBy?: { documentId?: string; url: string };
  /** The result, once delivered. */
  output?: ToolOutput;
  /** The call stopped waiting (its time limit): nothing is claimed or delivered any more. */
  expired?: boolean;
  /** The router's wait, once the call's document went away. */
  waiter?: { resolve: (result: ContinuedResult | undefined) => void; restart: () => void };
}

/** Where a resumeTool callback may still be running for a call that ended: the document that claimed its token. */
interface RunningResume {
  token: string;
  tabId: number;
  frameId: number;
  documentId?: string;
}

/** A continued call's result, and the page it finished on. */
interface ContinuedResult {
  output: ToolOutput;
  url: string;
}

export interface Continuations {
  /**
   * A token for `callId`, asked by `sender`, or undefined when that call is not the one running there
   * (`runsIn` says whether it is). The same token for every ask of one call.
   */
  mint(callId: string, sender: FrameSender, runsIn: (sender: FrameSender) => boolean): string | undefined;
  /** Whether a token was minted for this call (the router then waits for the continuation after a navigation). */
  has(callId: string): boolean;
  /** The continuation's result, or undefined when none came within `timeoutMs` (restarted once claimed). */
  wait(callId: string, timeoutMs: number): Promise<ContinuedResult | undefined>;
  /** The next document asks to resume: true, and the token is used up, only for its own tab, frame and origin. */
  claim(token: string, sender: FrameSender): boolean;
  /** The claiming document hands over the result: true when a call takes it. */
  deliver(token: string, sender: FrameSender, output: ToolOutput): boolean;
  /**
   * The call ended (answered, stopped, timed out): its token is void. Returns where its callback may still run (a
   * document claimed the token and delivered nothing), so that the router can abort it.
   */
  end(callId: string): RunningResume | undefined;
  forgetTab(tabId: number): void;
}

/** Creates the background's continuation book, minting tokens with `randomToken` (crypto.randomUUID). */
export function createContinuations(randomToken: () => string = () => crypto.randomUUID()): Continuations {
  const byCall = new Map<string, Continuation>();
  const byToken = new Map<string, Continuation>();

  const drop = (entry: Continuation) => {
    byCall.delete(entry.callId);
    byToken.delete(entry.token);
  };
  const sameFrame = (entry: Continuation, sender: FrameSender) =>
    entry.tabId === sender.tabId && entry.frameId === sender.frameId && entry.origin === sender.origin;
  const lookUp = (token: unknown) => (typeof token === 'string' ? byToken.get(token) : undefined);

  return {
    mint(callId, sender, runsIn) {
      if (!runsIn(sender)) return undefined;
      const known = byCall.get(callId);
      if (known) return sameFrame(known, sender) ? known.token : undefined;
      const entry: Continuation = { token: randomToken(), callId, tabId: sender.tabId, frameId: sender.frameId, origin: sender.origin };
      byCall.set(callId, entry);
      byToken.set(entry.token, entry);
      return entry.token;
    },
    has: (callId) => byCall.has(callId),
    wait(callId, timeoutMs) {
      const entry = byCall.get(callId);
      if (!entry) return Promise.resolve(undefined);
      if (entry.output && entry.claimedBy) return Promise.resolve({ output: entry.output, url: entry.claimedBy.url });
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const restart = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            // Kept until the call ends (end), so that a callback still running is told to stop; taken no more.
            entry.expired = true;
            resolve(undefined);
          }, timeoutMs);
        };
        entry.waiter = {
          resolve: (result) => {
            clearTimeout(timer);
            resolve(result);
          },
          restart,
        };
        restart();
      });
    },
    claim(token, sender) {
      const entry = lookUp(token);
      // Another tab, another frame of this tab, or this frame on another origin: not the party the token binds.
      if (!entry || entry.expired || entry.claimedBy || !sameFrame(entry, sender)) return false;
      entry.claimedBy = { ...(sender.documentId ? { documentId: sender.documentId } : {}), url: sender.url };
      // The callback runs now: it gets the call's whole limit from here.
      entry.waiter?.restart();
      return true;
    },
    deliver(token, sender, output) {
      const entry = lookUp(token);
      const claimer = entry?.claimedBy;
      if (!entry || entry.expired || !claimer || entry.output || !sameFrame(entry, sender)) return false;
      if (claimer.documentId !== undefined && claimer.documentId !== sender.documentId) return false;
      entry.output = output;
      if (!entry.waiter) return true;
      drop(entry);
      entry.waiter.resolve({ output, url: claimer.url });
      return true;
    },
    end(callId) {
      const entry = byCall.get(callId);
      if (!entry) return undefined;
      drop(entry);
      const claimer = entry.claimedBy;
      if (!claimer || entry.output) return undefined;
      return {
        token: entry.token,
        tabId: entry.tabId,
        frameId: entry.frameId,
        ...(claimer.documentId !== undefined ? { documentId: claimer.documentId } : {}),
      };
    },
    forgetTab(tabId) {
      for (const entry of [...byCall.values()]) if (entry.tabId === tabId) drop(entry);
    },
  };
}
