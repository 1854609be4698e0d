/**
 * One request line: asking and answering over any two-way transport (a runtime Port, a Worker, a MessagePort, the
 * bridge's socket), written once. The split is the MCP SDK's: the line (its `Protocol`) owns ids, cancels, timeouts,
 * interim updates and what a closed line means; a transport (its `Transport`) only sends, hears and says it closed.
 *
 * A line's messages are declared as a map from `<channel>/<verb>` to `{ request, answer, update? }`, as
 * lib/messaging/channel.ts declares a channel: `update` is what the answering side may send while an ask is pending
 * (progress, streamed text, a call's state); an entry whose answer is `undefined` is a notice, sent one way and never
 * answered. Both ends read the same maps, so a message's fields are written once and checked by the compiler.
 *
 * - Cancel reaches the other side's handler as an aborted AbortSignal (its reason crosses as name and message).
 * - When the line closes (the transport says so, or close() is called), every pending ask fails with one error, the
 *   line's `closedError`, and every running handler's signal aborts with it; later asks fail with it at once.
 * - Everything that arrives is untrusted: a malformed message is ignored, an unknown id is ignored, an answer is
 *   delivered once, an ask of a type nothing here answers is refused and a notice nothing here hears is ignored
 *   (asks and notices have handlers apart, so neither runs as the other). Handlers still check every field.
 *
 * It lives in the bridge package because the desktop bridge's link uses it and that package imports nothing of the
 * extension; the extension reads it through lib/messaging/create-request-line.ts. Pure: no Node, no DOM.
 */

/** A line's messages: each `<channel>/<verb>` with its request, its answer (`undefined`: a notice) and its updates. */
export type LineMap<M> = { [T in keyof M]: { request: object; answer: unknown; update?: unknown } };

/** The types of a map that are asked (answered). */
export type AskType<M extends LineMap<M>> = { [T in keyof M & string]: M[T]['answer'] extends undefined ? never : T }[keyof M & string];
/** The types of a map that are notices (one way). */
export type NoticeType<M extends LineMap<M>> = { [T in keyof M & string]: M[T]['answer'] extends undefined ? T : never }[keyof M & string];
/** What the answering side may send while an ask of type T is pending (never, when the map declares none). */
export type UpdateOf<M extends LineMap<M>, T extends keyof M> = M[T] extends { update: infer U } ? U : never;

/** An ask's id on the wire: the asking side's own, echoed back. */
export type AskId = string | number;

/** An error as it crosses a line (its name keeps AbortError and TimeoutError recognisable). */
export interface WireError {
  name: string;
  message: string;
}

/** What travels on a line. A transport may translate these to and from an older wire (the bridge's, say). */
export type LineMessage =
  | { line: 'ask'; id: AskId; type: string; request: object }
  | { line: 'notice'; type: string; request: object }
  | { line: 'update'; id: AskId; update: unknown }
  | { line: 'answer'; id: AskId; answer: unknown }
  | { line: 'error'; id: AskId; error: WireError }
  | { line: 'cancel'; id: AskId; reason: WireError };

/** How a line sends, hears and learns that the other side is gone. */
export interface LineTransport {
  /** Sends one message; throwing means the line is gone (it then closes). */
  send(message: LineMessage): void;
  /** Every message that arrives, as it came (the line checks it). */
  onMessage(listener: (message: unknown) => void): void;
  /** The other side is gone (a Port disconnected, a Worker failed, a socket closed); `detail` says why, if known. */
  onClose(listener: (detail?: string) => void): void;
  /** Closes this end (optional: a Worker's global cannot close its own line). */
  close?(): void;
}

/** What a handler gets besides the request. */
export interface AnswerContext<U> {
  /** Aborted when the asker cancels, its timeout passes, or the line closes. */
  signal: AbortSignal;
  /** Sends an interim update of this ask (progress, streamed text); dropped once the ask has ended. */
  update(update: U): void;
}

/**
 * The answering end: a handler per type this side answers. What a handler throws crosses the line as its name and
 * message: a side that must not say why (it could name what the asker may not know) throws its own words.
 */
export type LineHandlers<M extends LineMap<M>> = {
  [T in AskType<M>]?: (request: M[T]['request'], context: AnswerContext<UpdateOf<M, T>>) => M[T]['answer'] | Promise<M[T]['answer']>;
};

/** The hearing end: a listener per notice type this side hears. */
export type NoticeListeners<M extends LineMap<M>> = {
  [T in NoticeType<M>]?: (request: M[T]['request']) => void;
};

/** One ask's options. */
export interface AskOptions<U> {
  /** Aborting it cancels the ask: the other side's handler sees its signal abort, and the ask rejects with the reason. */
  signal?: AbortSignal;
  /** Without an answer in this many ms, the ask is cancelled and rejects with a TimeoutError. */
  timeoutMs?: number;
  /** Hears the other side's interim updates of this ask. */
  onUpdate?: (update: U) => void;
  /**
   * After a cancel, wait for the other side's handler to end (its answer is dropped; the ask still rejects with the
   * signal's reason) instead of rejecting at once: for a side whose next ask must not overlap the cancelled one's
   * work, or whose notices sent on the way out must have arrived.
   */
  waitAfterCancel?: boolean;
}

/** A line. `Out` is what this side asks and says; `In` what the other side asks and says (`handlers`, `notices`). */
export interface RequestLine<Out extends LineMap<Out>> {
  /** Asks the other side and resolves with its answer; rejects with its error, the cancel's reason, or `closedError`. */
  ask<T extends AskType<Out>>(type: T, request: Out[T]['request'], options?: AskOptions<UpdateOf<Out, T>>): Promise<Out[T]['answer']>;
  /** Sends a notice (dropped when the line is closed). */
  notify<T extends NoticeType<Out>>(type: T, request: Out[T]['request']): void;
  /** The error the line closed with, or undefined while it is open. */
  closed(): Error | undefined;
  /** Hears the line close (at once, when it already has). */
  onClose(listener: (error: Error) => void): () => void;
  /** Closes this end: pending asks fail with `closedError`, running handlers are aborted, the transport is closed. */
  close(detail?: string): void;
}

/** Options of a line. */
export interface RequestLineOptions<In extends LineMap<In>> {
  transport: LineTransport;
  /** What this side answers: an ask of any other type is refused, by name. */
  handlers?: LineHandlers<In>;
  /** What this side hears: a notice of any other type (an ask's type sent as a notice above all) is ignored. */
  notices?: NoticeListeners<In>;
  /** The one error every pending ask fails with when the line closes. Default: a LineClosedError. */
  closedError?: (detail?: string) => Error;
  /** Ids for this side's asks. Default: 1, 2, 3… */
  nextId?: () => AskId;
}

/** The line closed before the other side answered. */
export class LineClosedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LineClosedError';
  }
}

/** The longest id or type a line takes from the other side. */
const MAX_ID_LENGTH = 100;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onUpdate?: (update: unknown) => void;
}

/** Creates a line over `transport`. */
export function createRequestLine<Out extends LineMap<Out>, In extends LineMap<In> = Record<never, never>>(
  options: RequestLineOptions<In>,
): RequestLine<Out> {
  const { transport } = options;
  const handlers = (options.handlers ?? {}) as Record<string, AnyHandler | undefined>;
  const notices = (options.notices ?? {}) as Record<string, ((request: object) => void) | undefined>;
  const closedError = options.closedError ?? ((detail?: string) => new LineClosedError(`The line closed${detail ? `: ${detail}` : '.'}`));
  let counter = 0;
  const nextId = options.nextId ?? (() => ++counter);
  const pending = new Map<AskId, Pending>();
  const running = new Map<AskId, AbortController>();
  const closeListeners = new Set<(error: Error) => void>();
  let closedWith: Error | undefined;

  const shut = (detail?: string) => {
    if (closedWith) return;
    const error = closedError(detail);
    closedWith = error;
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(error);
    }
    for (const [id, controller] of running) {
      running.delete(id);
      controller.abort(error);
    }
    for (const listener of [...closeListeners]) listener(error);
  };

  const send = (message: LineMessage) => {
    if (closedWith) return;
    try {
      transport.send(message);
    } catch (error) {
      shut(error instanceof Error ? error.message : String(error));
    }
  };

  const answer = (id: AskId, type: string, request: object) => {
    if (running.has(id)) return; // An id already running is not answered twice.
    const handler = Object.hasOwn(handlers, type) ? handlers[type] : undefined;
    if (!handler) return send({ line: 'error', id, error: { name: 'Error', message: `Nothing here answers ${type}.` } });
    const controller = new AbortController();
    running.set(id, controller);
    const live = () => running.get(id) === controller;
    const context: AnswerContext<unknown> = {
      signal: controller.signal,
      update: (update) => {
        if (live() && !controller.signal.aborted) send({ line: 'update', id, update });
      },
    };
    // The final word goes even after a cancel: an asker that waits after cancelling (waitAfterCancel) needs it.
    const end = (message: LineMessage) => {
      if (!live()) return; // The line closed meanwhile.
      running.delete(id);
      send(message);
    };
    settle(() => handler(request, context)).then(
      (value) => end({ line: 'answer', id, answer: value ?? null }),
      (error: unknown) => end({ line: 'error', id, error: toWireError(error) }),
    );
  };

  const receive = (raw: unknown) => {
    if (closedWith) return;
    const message = readLineMessage(raw);
    if (!message) return;
    switch (message.line) {
      case 'ask':
        return answer(message.id, message.type, message.request);
      case 'notice': {
        const listener = Object.hasOwn(notices, message.type) ? notices[message.type] : undefined;
        if (listener) void settle(() => listener(message.request)).catch(() => undefined);
        return;
      }
      case 'cancel':
        return running.get(message.id)?.abort(fromWireError(message.reason));
      case 'update': {
        const onUpdate = pending.get(message.id)?.onUpdate;
        if (!onUpdate) return;
        try {
          onUpdate(message.update);
        } catch {
          // An update listener's failure is the asker's, not the line's.
        }
        return;
      }
      case 'answer':
      case 'error': {
        const entry = pending.get(message.id);
        if (!entry) return;
        pending.delete(message.id);
        if (message.line === 'answer') entry.resolve(message.answer);
        else entry.reject(fromWireError(message.error));
      }
    }
  };

  transport.onMessage(receive);
  transport.onClose((detail) => shut(detail));

  return {
    ask(type, request, askOptions = {}) {
      const { signal, timeoutMs, onUpdate, waitAfterCancel } = askOptions;
      if (closedWith) return Promise.reject(closedWith);
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = nextId();
      return new Promise((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let cancelledWith: { reason: unknown } | undefined;
        const cleanup = () => {
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const cancel = (reason: unknown) => {
          if (cancelledWith || !pending.has(id)) return;
          cancelledWith = { reason };
          send({ line: 'cancel', id, reason: toWireError(reason) });
          if (!waitAfterCancel || closedWith) {
            pending.delete(id);
            cleanup();
            reject(reason);
          }
        };
        const onAbort = () => cancel(signal?.reason);
        pending.set(id, {
          onUpdate: onUpdate as ((update: unknown) => void) | undefined,
          resolve: (value) => {
            cleanup();
            if (cancelledWith) reject(cancelledWith.reason);
            else resolve(value as never);
          },
          reject: (error) => {
            cleanup();
            // A line that closes fails every ask with its one error; a cancelled ask that ends keeps its own reason.
            reject(cancelledWith && error !== closedWith ? cancelledWith.reason : error);
          },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => cancel(new DOMException(`No answer to ${type} within ${timeoutMs} ms.`, 'TimeoutError')), timeoutMs);
        }
        send({ line: 'ask', id, type, request });
      });
    },
    notify(type, request) {
      send({ line: 'notice', type, request });
    },
    closed: () => closedWith,
    onClose(listener) {
      if (closedWith) {
        listener(closedWith);
        return () => undefined;
      }
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close(detail) {
      if (closedWith) return;
      shut(detail);
      try {
        transport.close?.();
      } catch {
        // Already gone.
      }
    },
  };
}

type AnyHandler = (request: object, context: AnswerContext<unknown>) => unknown;

/** Runs `run` and gives its outcome as a promise, a synchronous throw included. */
function settle(run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** An Error or anything thrown, as plain data. */
function toWireError(error: unknown): WireError {
  if (typeof error === 'object' && error !== null && typeof (error as Error).message === 'string') {
    const { name, message } = error as Error;
    return { name: typeof name === 'string' ? name : 'Error', message };
  }
  return { name: 'Error', message: String(error) };
}

/** Back to an Error the caller can match by name (a DOMException for AbortError and TimeoutError, as signals give). */
function fromWireError(error: WireError): Error {
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return new DOMException(error.message, error.name);
  const made = new Error(error.message);
  made.name = error.name;
  return made;
}

const isId = (value: unknown): value is AskId =>
  (typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH) || Number.isSafeInteger(value);
const isType = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isWireError = (value: unknown): value is WireError =>
  isObject(value) && typeof value.name === 'string' && typeof value.message === 'string';

/** A message as it came, checked field by field; undefined when it is not a line's. */
function readLineMessage(raw: unknown): LineMessage | undefined {
  if (!isObject(raw) || typeof raw.line !== 'string') return undefined;
  switch (raw.line) {
    case 'ask':
      return isId(raw.id) && isType(raw.type) && isObject(raw.request)
        ? { line: 'ask', id: raw.id, type: raw.type, request: raw.request }
        : undefined;
    case 'notice':
      return isType(raw.type) && isObject(raw.request) ? { line: 'notice', type: raw.type, request: raw.request } : undefined;
    case 'update':
      return isId(raw.id) ? { line: 'update', id: raw.id, update: raw.update } : undefined;
    case 'answer':
      return isId(raw.id) && 'answer' in raw ? { line: 'answer', id: raw.id, answer: raw.answer } : undefined;
    case 'error':
      return isId(raw.id) && isWireError(raw.error) ? { line: 'error', id: raw.id, error: raw.error } : undefined;
    case 'cancel':
      return isId(raw.id) && isWireError(raw.reason) ? { line: 'cancel', id: raw.id, reason: raw.reason } : undefined;
    default:
      return undefined;
  }
}
