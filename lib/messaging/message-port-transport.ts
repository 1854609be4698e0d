import type { LineTransport } from './create-request-line';

/** What the transport reads of the document's window: its pagehide. */
interface DocumentWindow {
  addEventListener(type: 'pagehide', listener: (event: Event) => void): void;
}

/** Options of a MessagePort transport. */
interface MessagePortTransportOptions {
  /**
   * The window of the document the port lives in: the line closes when that document goes for good (a pagehide not
   * kept in the back/forward cache; one that is kept may come back, its line with it).
   */
  win?: DocumentWindow;
  /**
   * Take only what the browser delivered (`isTrusted`), the `close` that ends the line too: a port shared with another
   * realm of the same document (the page's world) can have events dispatched on it by that realm's script, never
   * delivered through it. (A `pagehide` is believed only as the browser fires it, on either side: one that script
   * dispatched is no sign that the document goes.)
   */
  deliveredOnly?: boolean;
}

/**
 * A request line's transport over a MessagePort between two realms of one document (the page channel,
 * lib/webmcp/page-channel.ts). The line closes when the other end closes (a MessagePort's `close` event, where the
 * browser fires it) or when the document goes; `close()` closes this end, which tells the other where it can.
 */
export function messagePortTransport(port: MessagePort, { win, deliveredOnly = false }: MessagePortTransportOptions = {}): LineTransport {
  const believed = (event: Event) => !deliveredOnly || event.isTrusted;
  return {
    send: (message) => port.postMessage(message),
    onMessage(listener) {
      port.addEventListener('message', (event) => believed(event) && listener(event.data));
      port.start();
    },
    onClose(listener) {
      port.addEventListener('close', (event) => believed(event) && listener('its other end closed'));
      win?.addEventListener('pagehide', (event) => {
        if (event.isTrusted && !(event as PageTransitionEvent).persisted) listener('its document went away');
      });
    },
    close: () => port.close(),
  };
}
