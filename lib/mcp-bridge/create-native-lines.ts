/**
 * The extension's end of the desktop bridge's request line (lib/messaging/create-request-line.ts; the desktop end is
 * bridge/src/bridge-link.ts): one line per desktop agent's connection, over the native Port, on the bridge's wire as
 * it is (bridge/src/protocol.ts, BRIDGE_PROTOCOL 1). The native host stamps what a connection sends with its
 * `clientId`; here a request becomes an ask of that client's line (`ServerAsks`), `tools/cancel` its cancel (the
 * handler's signal aborts), and the line's answer, error and updates go back as `reply` and `tools/waiting` naming
 * the client. A line closes when its client goes (`client/gone`) and every line when the native Port does: a call
 * still running then ends with the line's one error as its signal's reason, and nothing more is posted for it.
 */
import {
  createRequestLine,
  type LineHandlers,
  LineClosedError,
  type LineMessage,
  type LineTransport,
} from '../messaging/create-request-line';
import type { NativeOutbound, ServerAsks } from '../messaging/mcp-bridge-messages';

/** The start of the error a running call's signal aborts with when the native Port closes. */
const NATIVE_PORT_CLOSED = 'The native Port to the desktop bridge closed';
/** The error a running call's signal aborts with when its client's connection closes. */
const CONNECTION_CLOSED = 'The desktop agent’s connection closed.';

/** The kinds a client asks (each answered by a `reply`). */
const ASKS: ReadonlySet<string> = new Set<keyof ServerAsks>(['client/hello', 'tools/list', 'tools/call']);

interface NativeLinesDeps {
  /** Posts to the native host (lost when the Port is closed). */
  post(message: NativeOutbound): void;
  /** What this end answers for one client. */
  handlers(clientId: string): LineHandlers<ServerAsks>;
}

/** The lines of the connected clients. */
export interface NativeLines {
  /** A request of a client's connection, as the host stamped it: its line (opened on the first) hears it. */
  receive(clientId: string, message: Record<string, unknown>): void;
  /** The client's connection closed: its line closes. */
  drop(clientId: string): void;
  /** The native Port closed (`detail`: why, in the person's words): every line closes. */
  closeAll(detail?: string): void;
}

/** A line's transport for one client: what arrives is given to it by `deliver`, its close by `shut`. */
function clientTransport(clientId: string, post: NativeLinesDeps['post']) {
  let hear: (message: unknown) => void = () => undefined;
  let closed: (detail?: string) => void = () => undefined;
  const transport: LineTransport = {
    send: (message) => {
      const wire = toWire(clientId, message);
      if (wire) post(wire);
    },
    onMessage: (listener) => {
      hear = listener;
    },
    onClose: (listener) => {
      closed = listener;
    },
  };
  return { transport, deliver: (message: LineMessage) => hear(message), shut: (detail?: string) => closed(detail) };
}

/** Creates the lines (none until a client speaks). */
export function createNativeLines(deps: NativeLinesDeps): NativeLines {
  const lines = new Map<string, ReturnType<typeof clientTransport>>();
  const lineOf = (clientId: string) => {
    const known = lines.get(clientId);
    if (known) return known;
    const made = clientTransport(clientId, deps.post);
    createRequestLine<Record<never, never>, ServerAsks>({
      transport: made.transport,
      handlers: deps.handlers(clientId),
      closedError: (detail) => new LineClosedError(detail ?? CONNECTION_CLOSED),
    });
    lines.set(clientId, made);
    return made;
  };
  const close = (clientId: string, detail: string) => {
    const line = lines.get(clientId);
    if (!line) return;
    lines.delete(clientId);
    line.shut(detail);
  };
  return {
    receive(clientId, message) {
      const read = fromWire(message);
      if (read) lineOf(clientId).deliver(read);
    },
    drop: (clientId) => close(clientId, CONNECTION_CLOSED),
    closeAll(detail) {
      const why = `${NATIVE_PORT_CLOSED}${detail ? `: ${detail}` : '.'}`;
      for (const clientId of [...lines.keys()]) close(clientId, why);
    },
  };
}

/** A client's request as its line reads it: an ask, or a cancel; undefined for anything else (dropped). */
function fromWire(message: Record<string, unknown>): LineMessage | undefined {
  const { type, id, clientId: _clientId, ...request } = message;
  if (typeof type !== 'string' || typeof id !== 'string') return undefined;
  if (type === 'tools/cancel')
    return { line: 'cancel', id, reason: { name: 'AbortError', message: 'The desktop agent cancelled the call.' } };
  return ASKS.has(type) ? { line: 'ask', id, type, request } : undefined;
}

/** What the line says to the client, on the bridge's wire (it asks nothing and sends no notices). */
function toWire(clientId: string, message: LineMessage): NativeOutbound | undefined {
  if (!('id' in message) || typeof message.id !== 'string') return undefined;
  switch (message.line) {
    case 'answer':
      return { type: 'reply', clientId, id: message.id, result: message.answer };
    case 'error':
      return { type: 'reply', clientId, id: message.id, error: { message: message.error.message } };
    case 'update':
      return { type: 'tools/waiting', clientId, id: message.id, message: String(message.update) };
    default:
      return undefined;
  }
}
