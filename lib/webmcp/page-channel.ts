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
 * - After the key, both sides speak over one request line (lib/messaging/create-request-line.ts) on that port:
 *   asks `main/<op>` (PageRequest) and `isolated/<op>` (PageAsk), the notice `isolated/changed`; a cancel reaches the
 *   MAIN side's handler as an aborted signal. The line closes when the document goes (a pagehide it does not come
 *   back from) or the port closes: every pending ask fails with one error, every running handler's signal aborts.
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
import { createRequestLine, type LineHandlers, type LineTransport, type RequestLine } from '../messaging/create-request-line';
import { messagePortTransport } from '../messaging/message-port-transport';
import type { LegacyApi } from '../messaging/tab-tool-snapshot';
import { describeThrown } from '../page-data/describe-thrown';

/** Isolated → MAIN requests, as the MAIN side's handler gets them (`id`: its count of them; the line has its own). */
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
  | { id: number; op: 'cancel-resume'; token: string };

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

/** What the isolated side asks the MAIN world on the line: `main/<op>`, answered with the page's (untrusted) value. */
type MainAsks = {
  [Op in PageRequest['op'] as `main/${Op}`]: { request: Omit<Extract<PageRequest, { op: Op }>, 'id' | 'op'>; answer: unknown };
};
/** What the MAIN world asks the isolated side on the line (`isolated/<op>`, see PageAsk), and its tool-change notice. */
type IsolatedAsks = { [Op in PageAsk['op'] as `isolated/${Op}`]: { request: object; answer: unknown } } & {
  'isolated/changed': { request: object; answer: undefined };
};
/** Every kind of PageRequest: the MAIN side answers these. */
const REQUEST_OPS = [
  'ping',
  'list',
  'call',
  'policy',
  'run-exposed',
  'exposed-changed',
  'cancel-resume',
] as const satisfies readonly PageRequest['op'][];

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
/** Every kind of PageAsk: the isolated world answers these and refuses any other. */
const PAGE_ASK_OPS = [
  'exposed',
  'exposed-tools',
  'run-exposed',
  'cancel-exposed',
  'token',
  'resume',
  'resumed',
] as const satisfies readonly PageAsk['op'][];
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
      resolve(port && createChannel(win, port));
    };
    win.addEventListener(PORT_EVENT, onAnnounce);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
  });
}

function createChannel(win: Window, port: MessagePort): PageChannel {
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
  // Only the kinds this world answers: the line refuses any other.
  const handlers: Record<string, (request: object) => Promise<unknown>> = {};
  for (const op of PAGE_ASK_OPS) {
    handlers[`isolated/${op}`] = (request) => answererOf(op).answer.then((answer) => answer({ ...request, op } as PageAsk));
  }
  const line = createRequestLine<MainAsks, IsolatedAsks>({
    // Only what the MAIN end sent: page script that holds this port can dispatch events on it, never send on it.
    transport: messagePortTransport(port, { win, deliveredOnly: true }),
    handlers: handlers as LineHandlers<IsolatedAsks>,
    notices: {
      'isolated/changed': () => {
        for (const listener of changeListeners) listener();
      },
    },
    closedError: pageGone,
    // Ids the page cannot guess: its script hears the MAIN end's answers on the announced port, and knowing the id
    // of an ask still pending would let it ask the MAIN end under that id first, or cancel it.
    // (getRandomValues, not randomUUID: a page served over plain http is no secure context, and has no randomUUID.)
    nextId: () => Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('-'),
  });
  let nextId = 1;
  const cancels = new Map<number, AbortController>();
  const send = <Op extends PageRequest['op']>(op: Op, request: MainAsks[`main/${Op}`]['request']) => {
    const id = nextId++;
    const controller = new AbortController();
    cancels.set(id, controller);
    const result = line
      .ask(`main/${op}` as keyof MainAsks, request as never, { signal: controller.signal })
      .catch((error: unknown) => Promise.reject(toError(error)))
      .finally(() => cancels.delete(id));
    return { id, result };
  };
  return {
    request: ((
      op: PageRequest['op'],
      args?: { name: string; input: unknown; callId?: string; caller?: string } | { allowed: boolean } | { token: string },
    ) => {
      if (op === 'call' && args && 'name' in args) return send(op, { name: args.name, input: args.input, callId: args.callId });
      if (op === 'run-exposed' && args && 'name' in args)
        return send(op, { name: args.name, input: args.input as string, caller: String(args.caller) });
      if (op === 'policy' && args && 'allowed' in args) return send(op, { allowed: args.allowed === true }).result;
      if (op === 'cancel-resume' && args && 'token' in args) return send(op, { token: args.token }).result;
      return send(op, {}).result;
    }) as PageChannel['request'],
    // The MAIN side's handler sees its signal abort with this reason, as the page's tool does (the polyfill's toolcancel).
    cancel: (id) => cancels.get(id)?.abort(new DOMException('The call was cancelled', 'AbortError')),
    onChanged: (listener) => changeListeners.push(listener),
    onAsk: (ops, answer) => {
      for (const op of ops) answererOf(op).set(answer as (ask: PageAsk) => Promise<unknown>);
    },
  };
}

/** The one error every pending ask fails with when the line closes (detail: why, as the transport says it). */
function pageGone(detail?: string): Error {
  const error = new Error(`The channel to the page's world closed: ${detail ?? 'it was closed'}.`);
  error.name = 'LineClosedError';
  return error;
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
 * key the background gave this world (see the header); `notify` sends a tool-change notice.
 */
export function servePageChannel(
  win: Window,
  handle: (request: PageRequest, signal: AbortSignal) => Promise<unknown>,
): { notify: () => void; prove: (key: string) => void; ask: AskIsolated } {
  const channel = new MessageChannel();
  const port = channel.port1;
  let handled = 0;
  // A page that took the announced port can ask here too: it asks the bridge about its own tools, nothing more,
  // and an answer it forges to one of this world's questions only misleads its own document, which it could do
  // in its own realm anyway.
  const handlers: Record<string, (request: object, context: { signal: AbortSignal }) => Promise<unknown>> = {};
  for (const op of REQUEST_OPS) {
    handlers[`main/${op}`] = (request, { signal }) =>
      handle({ ...request, id: ++handled, op } as PageRequest, signal).catch((error: unknown) =>
        // Whatever the page threw is described without touching it in a way that can throw (a Proxy, an object
        // without a prototype): a handler that threw here would leave the isolated side waiting for ever.
        Promise.reject(Object.assign(new Error(), describeThrown(error))),
      );
  }
  let line: RequestLine<IsolatedAsks> | undefined;
  let started: (line: RequestLine<IsolatedAsks>) => void = () => undefined;
  const whenStarted = new Promise<RequestLine<IsolatedAsks>>((resolve) => (started = resolve));
  return {
    // Only once announced: notices for a port nobody took would pile up in it.
    notify: () => line?.notify('isolated/changed', {}),
    // Asked after the proof: the isolated world reads nothing else on a port before its key.
    ask: (question) =>
      whenStarted
        .then((started) => started.ask(`isolated/${question.op}`, question))
        .catch((error: unknown) => {
          const e = toError(error);
          return Promise.reject(new DOMException(e.message, e.name));
        }),
    prove: (key) => {
      // Posted first, so that it waits in the port for whoever starts it during the announcement.
      port.postMessage({ key });
      if (!line) {
        line = createRequestLine<IsolatedAsks, MainAsks>({
          transport: failUnsendableAnswers(messagePortTransport(port, { win })),
          handlers: handlers as LineHandlers<MainAsks>,
          closedError: pageGone,
        });
        // Tells the isolated side where the browser can (a MessagePort's close event), should it outlive this end.
        line.onClose(() => port.close());
        started(line);
      }
      win.dispatchEvent(new MessageEvent(PORT_EVENT, { ports: [channel.port2] }));
    },
  };
}

/** An answer the port cannot carry (a value that does not clone) fails its ask instead of closing the line. */
function failUnsendableAnswers(transport: LineTransport): LineTransport {
  return {
    ...transport,
    send: (message) => {
      try {
        transport.send(message);
      } catch (error) {
        if (message.line !== 'answer') throw error;
        transport.send({ line: 'error', id: message.id, error: describeThrown(error) });
      }
    },
  };
}

/** Asks the isolated world a question (see PageAsk); rejects with its error. */
export type AskIsolated = (question: PageAsk) => Promise<unknown>;
