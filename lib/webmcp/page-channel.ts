/**
 * The channel between the MAIN-world script (page realm) and the isolated content script of one frame.
 *
 * Both halves are loaded on demand (docs/architecture.md, "The lazy connector"), after the page's own scripts, so the
 * page may be waiting for them. The handshake is therefore proven with a key the page is not shown:
 * - The background makes a random key for each load and hands it to both worlds through scripting.executeScript
 *   (lib/background/load-connector.ts): first to the isolated world, whose globals the page cannot see, then, once
 *   both scripts ran, to page-connector.js as an argument of a function the background runs in the page's world.
 * - The MAIN side makes one MessageChannel. For each key it posts `{ key }` on its own end and announces the other
 *   end as a `webmcp-agent:port` MessageEvent on window.
 * - The isolated side takes the first announced port on which a message with a key it was given arrives, checked
 *   as a message the browser delivered (`isTrusted`), not one page script dispatched on the port. It never sends
 *   anything on a port before that, and it stops listening once it has one.
 * - Then every message it takes is a delivered one too: only the holder of the MAIN end can speak to it.
 *
 * What this holds against, and what it does not (docs/security.md §4, "The page ↔ isolated-world channel"): a page
 * that only listens can see the announced port, hear what the bridge answers on it (its own tools) and ask the
 * bridge to run its own tools; it cannot answer for the bridge, nor hear the isolated side's requests. A page that
 * patched the built-ins the bridge uses (MessageChannel, postMessage, dispatchEvent…) before the bridge loaded
 * holds whatever the bridge holds in its world, key and MAIN end included: code in the page's realm hides nothing
 * from it. That page speaks for its own frame and nothing else, as it could by registering tools: the frame is
 * known by what the browser attests, the port reaches no other frame, and nothing secret is ever sent over it.
 *
 * So whatever arrives from the MAIN world is untrusted data (bounded, type-checked, never executed, never used as
 * an instruction), and nothing secret is sent to it.
 */
import type { ExposedTool } from '../messaging/router-messages';
import type { LegacyApi } from '../messaging/tab-tool-snapshot';
import { describeThrown } from '../page-data/describe-thrown';

/** Isolated → MAIN requests. */
export type PageRequest =
  | { id: number; op: 'ping' }
  | { id: number; op: 'list' }
  /** `callId`: the router's id of the agent's call, for a continuation token (lib/page-world/tool-continuations.ts). */
  | { id: number; op: 'call'; name: string; input: unknown; callId?: string }
  /** Whether this document may use tools (the `tools` permissions policy), as the background decided it. */
  | { id: number; op: 'policy'; allowed: boolean }
  /** Run this document's tool that it exposed to `caller` (another frame's origin, as the browser attested it). */
  | { id: number; op: 'run-exposed'; name: string; input: string; caller: string }
  /** A tool exposed to this document's origin came or went in another frame. */
  | { id: number; op: 'exposed-changed' }
  /** The call this document's resumeTool callback answers is over: the callback's signal aborts. */
  | { id: number; op: 'cancel-resume'; token: string }
  | { id: number; op: 'cancel' };

/**
 * MAIN → isolated: a question the page's world asks the background through the isolated world, answered with
 * `{answer, ok, value}`. Each is a claim of the page: the background checks it against the frame the browser attests.
 * - To reach other origins' frames (tools exposed across origins, lib/background/create-exposure-relay.ts).
 * - For a tool continuation's token, and to resume with one (lib/page-world/tool-continuations.ts).
 */
export type PageAsk =
  /** This document's tools exposed to other origins, all of them (a notice: its answer means nothing). */
  | { op: 'exposed'; tools: ExposedTool[] }
  | { op: 'exposed-tools'; fromOrigins: string[] }
  | { op: 'run-exposed'; callId: string; frameId: number; origin: string; name: string; input: string }
  | { op: 'cancel-exposed'; callId: string }
  | { op: 'token'; callId: string }
  | { op: 'resume'; token: string }
  | { op: 'resumed'; token: string; ok: true; value: string | null }
  | { op: 'resumed'; token: string; ok: false; error: { name: string; message: string } };

/** MAIN → isolated: a request's answer, an unsolicited tool-change notice, or the proof of the handshake. */
type PageMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } }
  | { op: 'changed' }
  | { key: string }
  | ({ ask: number } & PageAsk);

/** A tool as the MAIN world lists it: schema as JSON text (a page schema may hold functions or cycles). */
export interface PageToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchemaJson?: string;
  inputSchemaError?: string;
  /** The tool's outputSchema as JSON text, when it declares one that is JSON. */
  outputSchemaJson?: string;
  annotations?: Record<string, boolean>;
  /** Registered through an API generation native WebMCP no longer has (the polyfill's tools only). */
  legacyApi?: LegacyApi;
  /**
   * The polyfill's own word that this tool is a declarative form's: `submits` with toolautosubmit, `waits` for the
   * person's submit without (declarative-form-tools.ts).
   */
  form?: 'submits' | 'waits';
  /**
   * The tool's description or input schema is heavier than one tool may be (MAX_TOOL_BYTES): they are not sent,
   * and the isolated world leaves the tool out (it checks again whatever this says).
   */
  oversized?: true;
}

const PORT_EVENT = 'webmcp-agent:port';
/** Every kind of PageAsk: the isolated world answers these and drops any other. */
const PAGE_ASK_OPS = new Set<string>([
  'exposed',
  'exposed-tools',
  'run-exposed',
  'cancel-exposed',
  'token',
  'resume',
  'resumed',
] satisfies PageAsk['op'][]);
/** Ports announced before one proves itself: a page announcing more only keeps its own frame from connecting. */
const MAX_CANDIDATES = 32;

/** The isolated side of a connected channel. */
export interface PageChannel {
  /** Sends a request; resolves with the MAIN world's (untrusted) value, rejects with its error. */
  request(op: 'ping' | 'list'): Promise<unknown>;
  request(op: 'call', args: { name: string; input: unknown; callId?: string }): { id: number; result: Promise<unknown> };
  request(op: 'policy', args: { allowed: boolean }): Promise<unknown>;
  request(op: 'run-exposed', args: { name: string; input: string; caller: string }): { id: number; result: Promise<unknown> };
  request(op: 'exposed-changed'): Promise<unknown>;
  request(op: 'cancel-resume', args: { token: string }): Promise<unknown>;
  cancel(id: number): void;
  onChanged(listener: () => void): void;
  /**
   * Answers the MAIN world's questions of the kinds `ops` (untrusted: checked by whoever answers them). A question
   * that comes before its kind has an answerer waits for one.
   */
  onAsk<Op extends PageAsk['op']>(ops: readonly Op[], answer: (ask: Extract<PageAsk, { op: Op }>) => Promise<unknown>): void;
}

/**
 * Isolated side: waits for the MAIN world's port. `keys` are the keys this world was given (the array may grow
 * while it waits: each load of the bridge adds one). Resolves with the channel on the first announced port that
 * proves one of them, or undefined after `timeoutMs` (a page where the MAIN-world script could not run, e.g. a
 * sandboxed frame).
 */
export function connectPageChannel(win: Window, keys: readonly string[], timeoutMs = 2_000): Promise<PageChannel | undefined> {
  return new Promise((resolve) => {
    const candidates = new Map<MessagePort, (event: MessageEvent) => void>();
    const onAnnounce = (event: Event) => {
      const port = (event as MessageEvent).ports?.[0];
      if (!port || candidates.has(port) || candidates.size >= MAX_CANDIDATES) return;
      const onProof = (message: MessageEvent) => {
        // Delivered through the port, not dispatched on it by page script; and a key the page was not shown.
        if (!message.isTrusted) return;
        const key = (message.data as { key?: unknown } | null)?.key;
        if (typeof key === 'string' && keys.includes(key)) finish(port);
      };
      candidates.set(port, onProof);
      port.addEventListener('message', onProof);
      port.start();
    };
    const finish = (port: MessagePort | undefined) => {
      win.removeEventListener(PORT_EVENT, onAnnounce);
      clearTimeout(timer);
      for (const [candidate, listener] of candidates) candidate.removeEventListener('message', listener);
      resolve(port && createChannel(port));
    };
    win.addEventListener(PORT_EVENT, onAnnounce);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
  });
}

function createChannel(port: MessagePort): PageChannel {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const changeListeners: (() => void)[] = [];
  // Questions that come before the bridge set who answers their kind wait for it.
  const answerers = new Map<
    string,
    { answer: Promise<(ask: PageAsk) => Promise<unknown>>; set: (answer: (ask: PageAsk) => Promise<unknown>) => void }
  >();
  const answererOf = (op: string) => {
    let entry = answerers.get(op);
    if (!entry) {
      let set: (answer: (ask: PageAsk) => Promise<unknown>) => void = () => undefined;
      const answer = new Promise<(ask: PageAsk) => Promise<unknown>>((resolve) => (set = resolve));
      entry = { answer, set };
      answerers.set(op, entry);
    }
    return entry;
  };
  port.addEventListener('message', (event) => {
    // Only what the MAIN end sent: page script that holds this port can dispatch events on it, never send on it.
    if (!event.isTrusted) return;
    const data = event.data as PageMessage | null;
    if (typeof data !== 'object' || data === null || 'key' in data) return;
    if ('ask' in data) {
      const { ask, ...question } = data;
      const answer = (reply: Record<string, unknown>) => port.postMessage({ answer: ask, ...reply });
      // Only the kinds this world answers: any other op never gets an answerer, and is dropped.
      if (typeof question.op !== 'string' || !PAGE_ASK_OPS.has(question.op)) return;
      void answererOf(question.op).answer.then((answerAsk) =>
        answerAsk(question as PageAsk).then(
          (value) => answer({ ok: true, value }),
          (error) => answer({ ok: false, error: describeThrown(error) }),
        ),
      );
      return;
    }
    if ('op' in data) {
      if (data.op === 'changed') for (const listener of changeListeners) listener();
      return;
    }
    const entry = typeof data.id === 'number' ? waiting.get(data.id) : undefined;
    if (!entry) return;
    waiting.delete(data.id);
    if (data.ok === true) entry.resolve(data.value);
    else entry.reject(toError((data as { error?: unknown }).error));
  });
  const send = (message: Record<string, unknown>) => {
    const id = nextId++;
    const result = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }));
    port.postMessage({ ...message, id });
    return { id, result };
  };
  return {
    request: ((
      op: string,
      args?: { name: string; input: unknown; callId?: string; caller?: string } | { allowed: boolean } | { token: string },
    ) => {
      if (op === 'call' && args && 'name' in args) return send({ op, name: args.name, input: args.input, callId: args.callId });
      if (op === 'run-exposed' && args && 'name' in args) return send({ op, name: args.name, input: args.input, caller: args.caller });
      if (op === 'policy' && args && 'allowed' in args) return send({ op, allowed: args.allowed === true }).result;
      if (op === 'cancel-resume' && args && 'token' in args) return send({ op, token: args.token }).result;
      return send({ op }).result;
    }) as PageChannel['request'],
    cancel: (id) => port.postMessage({ op: 'cancel', id }),
    onChanged: (listener) => changeListeners.push(listener),
    onAsk: (ops, answer) => {
      for (const op of ops) answererOf(op).set(answer as (ask: PageAsk) => Promise<unknown>);
    },
  };
}

/** An error from the page, as plain bounded data. */
function toError(raw: unknown): Error {
  const e = (typeof raw === 'object' && raw !== null ? raw : {}) as { name?: unknown; message?: unknown };
  const error = new Error(typeof e.message === 'string' ? e.message.slice(0, 2_000) : 'The page reported an error');
  error.name = typeof e.name === 'string' ? e.name.slice(0, 100) : 'Error';
  return error;
}

/**
 * MAIN side: serves the channel's MAIN end, handing each request to `handle`. `prove` announces the other end with a
 * key the background gave this world (see the header); `notify` posts a tool-change notice.
 */
export function servePageChannel(
  win: Window,
  handle: (request: PageRequest, signal: AbortSignal) => Promise<unknown>,
): { notify: () => void; prove: (key: string) => void; ask: AskIsolated } {
  const channel = new MessageChannel();
  const port = channel.port1;
  const running = new Map<number, AbortController>();
  const asked = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextAsk = 1;
  let proven = false;
  let setAnnounced: () => void = () => undefined;
  const announced = new Promise<void>((resolve) => (setAnnounced = resolve));
  port.onmessage = (message) => {
    // A page that took the announced port can send here too: it asks the bridge about its own tools, nothing more,
    // and an answer it forges to one of this world's questions only misleads its own document, which it could do
    // in its own realm anyway.
    const request = message.data as PageRequest | null;
    if (typeof request !== 'object' || request === null) return;
    if ('answer' in request) return settleAsk(asked, request);
    if (request.op === 'cancel') {
      running.get(request.id)?.abort(new DOMException('The call was cancelled', 'AbortError'));
      return;
    }
    const controller = new AbortController();
    running.set(request.id, controller);
    // Whatever the page threw is described without touching it in a way that can throw (a Proxy, an object
    // without a prototype): a handler that threw here would leave the isolated side waiting for ever.
    const fail = (error: unknown) => port.postMessage({ id: request.id, ok: false, error: describeThrown(error) });
    handle(request, controller.signal)
      .then((value) => {
        try {
          port.postMessage({ id: request.id, ok: true, value });
        } catch (error) {
          fail(error);
        }
      }, fail)
      .finally(() => running.delete(request.id));
  };
  return {
    // Only once announced: notices for a port nobody took would pile up in it.
    notify: () => proven && port.postMessage({ op: 'changed' }),
    // Posted after the proof: the isolated world reads nothing else on a port before its key.
    ask: (question) => {
      const ask = nextAsk++;
      return new Promise((resolve, reject) => {
        asked.set(ask, { resolve, reject });
        void announced.then(() => port.postMessage({ ...question, ask }));
      });
    },
    prove: (key) => {
      proven = true;
      // Posted first, so that it waits in the port for whoever starts it during the announcement.
      port.postMessage({ key });
      win.dispatchEvent(new MessageEvent(PORT_EVENT, { ports: [channel.port2] }));
      setAnnounced();
    },
  };
}

/** Asks the isolated world a question (see PageAsk); rejects with its error. */
export type AskIsolated = (question: PageAsk) => Promise<unknown>;

/** Settles the question an isolated-world answer is for, if it is one this world asked. */
function settleAsk(
  asked: Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>,
  reply: { answer?: unknown; ok?: unknown; value?: unknown; error?: unknown },
): void {
  const entry = typeof reply.answer === 'number' ? asked.get(reply.answer) : undefined;
  if (!entry) return;
  asked.delete(reply.answer as number);
  if (reply.ok === true) entry.resolve(reply.value);
  else {
    const error = toError(reply.error);
    entry.reject(new DOMException(error.message, error.name));
  }
}
