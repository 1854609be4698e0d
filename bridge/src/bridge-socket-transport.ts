/**
 * The request line's transport over the native host's socket (create-request-line.ts), speaking the bridge's wire
 * (protocol.ts) as it is, so that the host that relays it and the extension that answers it need not change
 * (BRIDGE_PROTOCOL stays 1): an ask goes as `{ type, id, …request }`, a cancel as `tools/cancel`; a `reply` comes
 * back as an answer or an error, `tools/waiting` as an update of the call it names, `tools/list-changed` and
 * `host/hello` as notices. Everything else on the socket is dropped.
 */
import type { Socket } from 'node:net';
import type { LineMessage, LineTransport } from './create-request-line.js';
import { createLineReader } from './native-messaging.js';
import { isObject, type ServerToExtension } from './protocol.js';

/** The name an extension's refusal has on the line (bridge-link.ts gives it back as an ExtensionError). */
export const EXTENSION_REFUSED = 'ExtensionError';

/** The largest line the extension may send (a call's result with images). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A transport over `socket`: its `close` event closes the line. */
export function bridgeSocketTransport(socket: Socket): LineTransport {
  return {
    send(message) {
      const wire = toBridgeWire(message);
      if (wire) socket.write(`${JSON.stringify(wire)}\n`);
    },
    onMessage(listener) {
      const read = createLineReader(
        (raw) => {
          const message = fromBridgeWire(raw);
          if (message) listener(message);
        },
        { maxLineBytes: MAX_LINE_BYTES, onTooLong: () => socket.destroy() },
      );
      socket.on('data', read);
    },
    onClose(listener) {
      socket.on('close', () => listener());
    },
    close: () => socket.destroy(),
  };
}

/** What the server says, on the bridge's wire; undefined for what it never says there (it answers nothing). */
export function toBridgeWire(message: LineMessage): ServerToExtension | undefined {
  if (message.line === 'ask' && typeof message.id === 'string')
    return { ...message.request, type: message.type, id: message.id } as ServerToExtension;
  if (message.line === 'cancel' && typeof message.id === 'string') return { type: 'tools/cancel', id: message.id };
  return undefined;
}

/** A line of the socket as the request line reads it; undefined when it is none of the kinds above. */
export function fromBridgeWire(raw: unknown): LineMessage | undefined {
  if (!isObject(raw)) return undefined;
  const { id } = raw;
  switch (raw.type) {
    case 'reply':
      if (typeof id !== 'string') return undefined;
      if ('error' in raw) {
        const message =
          isObject(raw.error) && typeof raw.error.message === 'string' ? raw.error.message : 'The extension refused the request.';
        return { line: 'error', id, error: { name: EXTENSION_REFUSED, message } };
      }
      return { line: 'answer', id, answer: raw.result };
    case 'tools/waiting':
      return typeof id === 'string' ? { line: 'update', id, update: String(raw.message ?? '') } : undefined;
    case 'tools/list-changed':
      return { line: 'notice', type: 'tools/list-changed', request: {} };
    case 'host/hello':
      return { line: 'notice', type: 'host/hello', request: { browser: raw.browser } };
    default:
      return undefined;
  }
}
