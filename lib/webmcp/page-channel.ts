/**
 * The channel between the MAIN-world script (page realm) and the isolated content script of one frame.
 *
 * Handshake, either script first: the isolated script picks a random nonce and dispatches
 * `webmcp-agent:open` (detail: the nonce) on window; the MAIN script answers once with a MessageEvent named
 * `webmcp-agent:port:<nonce>` carrying a MessagePort, and announces itself with `webmcp-agent:ready` (which
 * makes the isolated script repeat its open, for the case where it ran first). Both run at document_start,
 * before page scripts, and after the handshake everything travels over the port, which page code never holds.
 *
 * The MAIN world is the page's realm: whatever arrives from it is untrusted data (bounded, type-checked,
 * never executed, never used as an instruction), and nothing secret is sent to it.
 */
import { describeThrown } from '../page-data/describe-thrown';

/** Isolated → MAIN requests. */
export type PageRequest =
  | { id: number; op: 'ping' }
  | { id: number; op: 'list' }
  | { id: number; op: 'call'; name: string; input: unknown }
  | { id: number; op: 'cancel' };

/** MAIN → isolated: a request's answer, or an unsolicited tool-change notice. */
type PageMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } }
  | { op: 'changed' };

/** A tool as the MAIN world lists it: schema as JSON text (a page schema may hold functions or cycles). */
export interface PageToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchemaJson?: string;
  inputSchemaError?: string;
  annotations?: Record<string, boolean>;
}

const OPEN_EVENT = 'webmcp-agent:open';
const READY_EVENT = 'webmcp-agent:ready';
const PORT_EVENT_PREFIX = 'webmcp-agent:port:';

/** The isolated side of a connected channel. */
export interface PageChannel {
  /** Sends a request; resolves with the MAIN world's (untrusted) value, rejects with its error. */
  request(op: 'ping' | 'list'): Promise<unknown>;
  request(op: 'call', args: { name: string; input: unknown }): { id: number; result: Promise<unknown> };
  cancel(id: number): void;
  onChanged(listener: () => void): void;
}

/**
 * Isolated side: opens the channel. Resolves with the channel once the MAIN world answered, or undefined after
 * `timeoutMs` (a page where the MAIN-world script could not run, e.g. a sandboxed frame).
 */
export function connectPageChannel(win: Window, nonce: string, timeoutMs = 2_000): Promise<PageChannel | undefined> {
  return new Promise((resolve) => {
    const open = () => win.dispatchEvent(new CustomEvent(OPEN_EVENT, { detail: nonce }));
    const onPort = (event: Event) => {
      const port = (event as MessageEvent).ports?.[0];
      if (!port) return;
      cleanup();
      resolve(createChannel(port));
    };
    const cleanup = () => {
      win.removeEventListener(`${PORT_EVENT_PREFIX}${nonce}`, onPort);
      win.removeEventListener(READY_EVENT, open);
      clearTimeout(timer);
    };
    win.addEventListener(`${PORT_EVENT_PREFIX}${nonce}`, onPort);
    win.addEventListener(READY_EVENT, open);
    const timer = setTimeout(() => {
      cleanup();
      resolve(undefined);
    }, timeoutMs);
    open();
  });
}

function createChannel(port: MessagePort): PageChannel {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const changeListeners: (() => void)[] = [];
  port.onmessage = (event) => {
    const data = event.data as PageMessage | null;
    if (typeof data !== 'object' || data === null) return;
    if ('op' in data) {
      if (data.op === 'changed') for (const listener of changeListeners) listener();
      return;
    }
    const entry = typeof data.id === 'number' ? waiting.get(data.id) : undefined;
    if (!entry) return;
    waiting.delete(data.id);
    if (data.ok === true) entry.resolve(data.value);
    else entry.reject(toError((data as { error?: unknown }).error));
  };
  const send = (message: Record<string, unknown>) => {
    const id = nextId++;
    const result = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }));
    port.postMessage({ ...message, id });
    return { id, result };
  };
  return {
    request: ((op: string, args?: { name: string; input: unknown }) => {
      if (op === 'call') return send({ op, name: args!.name, input: args!.input });
      return send({ op }).result;
    }) as PageChannel['request'],
    cancel: (id) => port.postMessage({ op: 'cancel', id }),
    onChanged: (listener) => changeListeners.push(listener),
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
 * MAIN side: answers the isolated script's handshake with a fresh port and hands each request to `handle`.
 * `notify` posts a tool-change notice.
 */
export function servePageChannel(
  win: Window,
  handle: (request: PageRequest, signal: AbortSignal) => Promise<unknown>,
): { notify: () => void } {
  let port: MessagePort | undefined;
  const running = new Map<number, AbortController>();
  win.addEventListener(OPEN_EVENT, (event) => {
    const nonce = (event as CustomEvent).detail;
    if (port || typeof nonce !== 'string') return;
    const channel = new MessageChannel();
    port = channel.port1;
    port.onmessage = (message) => {
      const request = message.data as PageRequest;
      if (request.op === 'cancel') {
        running.get(request.id)?.abort(new DOMException('The call was cancelled', 'AbortError'));
        return;
      }
      const controller = new AbortController();
      running.set(request.id, controller);
      // Whatever the page threw is described without touching it in a way that can throw (a Proxy, an object
      // without a prototype): a handler that threw here would leave the isolated side waiting for ever.
      const fail = (error: unknown) => port!.postMessage({ id: request.id, ok: false, error: describeThrown(error) });
      handle(request, controller.signal)
        .then((value) => {
          try {
            port!.postMessage({ id: request.id, ok: true, value });
          } catch (error) {
            fail(error);
          }
        }, fail)
        .finally(() => running.delete(request.id));
    };
    win.dispatchEvent(new MessageEvent(`${PORT_EVENT_PREFIX}${nonce}`, { ports: [channel.port2] }));
  });
  win.dispatchEvent(new Event(READY_EVENT));
  return { notify: () => port?.postMessage({ op: 'changed' }) };
}
