import type { LineTransport } from './create-request-line';

/** A runtime Port as a line needs it (browser.runtime.Port fits). */
interface RuntimePortLike {
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  /** Firefox gives the Port with its `error`; Chrome's typings have none (its reason is in runtime.lastError). */
  onDisconnect: { addListener(listener: (port?: object) => void): void };
  disconnect(): void;
}

/**
 * A request line's transport over a runtime Port: the Port's onDisconnect closes the line (with the browser's
 * reason when it gives one: Firefox on the Port, Chrome in runtime.lastError, read through `lastError`).
 */
export function portTransport(port: RuntimePortLike, lastError?: () => string | undefined): LineTransport {
  return {
    send: (message) => port.postMessage(message),
    onMessage: (listener) => port.onMessage.addListener(listener),
    onClose: (listener) =>
      port.onDisconnect.addListener((gone) =>
        listener((gone as { error?: { message?: string } } | undefined)?.error?.message ?? lastError?.()),
      ),
    close: () => port.disconnect(),
  };
}
