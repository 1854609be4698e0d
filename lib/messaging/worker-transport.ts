import type { LineTransport } from './create-request-line';

/** What a Worker, a MessagePort and a worker's global have in common, as a line needs it. */
export interface MessageTarget {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error' | 'close', listener: (event: { data?: unknown; message?: string }) => void): void;
  /** MessagePorts deliver nothing until started. */
  start?: () => void;
  /** A MessagePort's end. */
  close?: () => void;
  /** A Worker's end. */
  terminate?: () => void;
}

/**
 * A request line's transport over a Worker, a MessagePort or a worker's global. A Worker's `error` event (a script
 * that failed to load, a crash, out of memory) and a MessagePort's `close` event (its other end closed, where the
 * browser fires it) close the line; `detail` is the event's message. Inside the Worker, pass `{ closesOnError:
 * false }`: its global's `error` event is one uncaught error of its own, not the end of the line.
 */
export function workerTransport(target: MessageTarget, { closesOnError = true } = {}): LineTransport {
  return {
    send: (message) => target.postMessage(message),
    onMessage(listener) {
      target.addEventListener('message', (event) => listener(event.data));
      target.start?.();
    },
    onClose(listener) {
      if (closesOnError) target.addEventListener('error', (event) => listener(event.message || undefined));
      target.addEventListener('close', () => listener());
    },
    close() {
      target.terminate?.();
      target.close?.();
    },
  };
}
