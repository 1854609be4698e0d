/**
 * Tool continuations, the page's-world half (issue 23; the shapes of spec PR #327 as the issue summarises them:
 * docs/webmcp-conformance.md). A tool the agent called gets `invocation` beside `signal` in `execute(input,
 * {signal, invocation})`; `invocation.requestToken()` gives it an opaque token it carries to its next document
 * (sessionStorage, the URL), where `document.modelContext.resumeTool(token, callback)` runs `callback` and hands
 * its result to the agent's call, which waited for it while the page navigated.
 *
 * Nothing here decides anything: the extension's background mints each token, bound to the tab, the frame and the
 * origin the browser attests, and to the call running in that frame; it takes a token back only from that tab,
 * frame and origin, once (lib/background/create-continuations.ts, docs/security.md). This code runs in the page's
 * realm, so it holds nothing secret, and a page that patched it only fools itself.
 */
import { describeThrown } from '../page-data/describe-thrown';
import type { AskIsolated } from '../webmcp/page-channel';

/** What a tool's `execute` gets as `client.invocation`. */
export interface ToolInvocation {
  /** Resolves with a token for this call; rejects with InvalidStateError for a call nobody can follow. */
  requestToken(): Promise<string>;
}

/**
 * The isolated world's questions, per document: set once the page channel is served, which comes just after the
 * stub hands over the calls it recorded (a resumeTool made while the page loaded waits for it).
 */
const links = new WeakMap<Window, Link>();

interface Link {
  ask?: AskIsolated;
  linked: Promise<AskIsolated>;
  resolve(ask: AskIsolated): void;
}

function linkOf(win: Window): Link {
  const known = links.get(win);
  if (known) return known;
  let resolve: (ask: AskIsolated) => void = () => undefined;
  const linked = new Promise<AskIsolated>((done) => (resolve = done));
  const link: Link = { linked, resolve };
  links.set(win, link);
  return link;
}
/** The agent's calls by the signal the bridge gave executeTool, with the router's id of each. */
const agentCalls = new WeakMap<AbortSignal, string>();

/** Why requestToken refuses a call that a page script made: no caller survives the page's navigation. */
const NOT_FOLLOWED =
  'Only a call made by an agent that follows the page can continue on the next page; this call was made by the page itself.';
const ENDED = 'This call has ended: a token is only given while the tool runs.';
/** Why resumeTool refuses a token; the callback never runs. */
const NO_CALL_WAITS = 'No tool call waits for this token: it is unknown, already used, expired, or for another page.';
/** Why a running callback's signal aborted, and resumeTool rejects: the call it answers is over. */
const CALL_OVER = 'The call was stopped (or waited too long): nothing this callback returns reaches the agent.';

/** What a resumeTool callback gets: the signal that aborts when the call it answers is over. */
interface ResumeClient {
  signal: AbortSignal;
}

/** The resumeTool callbacks running in each document, by token, until they settle. */
const resuming = new WeakMap<Window, Map<string, AbortController>>();

/** Lets the continuations of this document ask the background, through the isolated world (serve-page-tools.ts). */
export function linkContinuations(win: Window, ask: AskIsolated): void {
  const link = linkOf(win);
  link.ask = ask;
  link.resolve(ask);
}

/** Marks a call as the agent's: `signal` is the one the bridge hands executeTool, `callId` the router's id. */
export function markAgentCall(signal: AbortSignal, callId: string): void {
  agentCalls.set(signal, callId);
}

/**
 * The `invocation` of one run of a tool, whose caller's signal is `callerSignal`; `finish()` once the tool has
 * settled, after which no token is given.
 */
export function createInvocation(win: Window, callerSignal: AbortSignal | undefined): { invocation: ToolInvocation; finish: () => void } {
  let ended = false;
  const invocation: ToolInvocation = {
    requestToken() {
      const callId = callerSignal ? agentCalls.get(callerSignal) : undefined;
      const ask = linkOf(win).ask;
      if (callId === undefined || !ask) return Promise.reject(new DOMException(NOT_FOLLOWED, 'InvalidStateError'));
      if (ended) return Promise.reject(new DOMException(ENDED, 'InvalidStateError'));
      return ask({ op: 'token', callId }).then(
        (token) => {
          if (typeof token !== 'string' || token === '') throw new DOMException(ENDED, 'InvalidStateError');
          return token;
        },
        () => {
          throw new DOMException(ENDED, 'InvalidStateError');
        },
      );
    },
  };
  return { invocation: Object.freeze(invocation), finish: () => (ended = true) };
}

/**
 * The background says the call that `token`'s callback answers in this document is over (the person's Stop, its
 * time limit): the callback's signal aborts, and resumeTool rejects at once without handing anything over.
 */
export function cancelResume(win: Window, token: string): void {
  resuming.get(win)?.get(token)?.abort(new DOMException(CALL_OVER, 'AbortError'));
}

/**
 * `resumeTool(token, callback)`: asks the background whether a call of this tab and frame waits for `token` from
 * this origin (claiming it: a token is good once); only then runs `callback({signal})`, reads its result as
 * `serialize` reads a tool's, and hands it (or what the callback threw) to the call. Resolves once the caller has
 * it; rejects with NotFoundError for a token nobody waits for (the callback never runs), with AbortError as soon as
 * the call is over while the callback runs (its signal aborts, and nothing it returns is handed over), and with
 * InvalidStateError when the call stopped waiting before the result came.
 */
export async function resumeToolCall(
  win: Window,
  token: string,
  callback: (client: ResumeClient) => unknown,
  serialize: (value: unknown) => string | null,
): Promise<void> {
  const ask = await linkOf(win).linked;
  const claimed = await ask({ op: 'resume', token }).catch(() => false);
  if (claimed !== true) throw new DOMException(NO_CALL_WAITS, 'NotFoundError');
  const controller = new AbortController();
  const { signal } = controller;
  const running = resuming.get(win) ?? new Map<string, AbortController>();
  resuming.set(win, running);
  running.set(token, controller);
  try {
    const over = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const result = (async () => serialize(await Reflect.apply(callback, undefined, [Object.freeze({ signal })])))();
    let outcome: Parameters<AskIsolated>[0];
    try {
      outcome = { op: 'resumed', token, ok: true, value: await Promise.race([result, over]) };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // As a tool that threw: the call ends with the error, and resumeTool resolves once the caller has it.
      outcome = { op: 'resumed', token, ok: false, error: describeThrown(error) };
    }
    if (signal.aborted) throw signal.reason;
    const delivered = await ask(outcome).catch(() => false);
    if (delivered !== true) {
      throw new DOMException('The call stopped waiting before the result came (it was stopped, or waited too long).', 'InvalidStateError');
    }
  } finally {
    running.delete(token);
  }
}
