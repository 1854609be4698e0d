/**
 * The agent host's line to the tool router (lib/messaging/router-messages.ts RouterLine, RouterPushLine): the host
 * opens a runtime Port named ROUTER_PORT_NAME, taken only from the extension's own pages (acceptExtensionPort, the
 * rule the router's runtime messages had), and on it asks for snapshots and calls (router-host-handlers.ts) and
 * hears the router's pushes. A call's cancel reaches the router's handler as an aborted signal; when the Port closes
 * (the host went, or this service worker is stopping) every call it asked for is cancelled with the line's error.
 *
 * Chrome's host is another context (the offscreen document) and does not reopen its line on its own when it closes,
 * so that an idle service worker may stop: news for it that finds no line is held (the latest per tab) and the host
 * is called (`host/connect-router`); its new line gets what was held. Firefox's host is this page and uses the router
 * directly: a line there is only an extension page's (its tests), and nothing is held for one.
 */
import { type ExtensionIdentity, acceptExtensionPort } from '../messaging/accept-extension-port';
import { createRequestLine, type LineHandlers, type RequestLine } from '../messaging/create-request-line';
import type { AttestedSender } from '../messaging/is-host-sender';
import { portTransport } from '../messaging/port-transport';
import type { MessageOf } from '../messaging/channel';
import {
  type BackgroundToHostMessage,
  ROUTER_PORT_NAME,
  type RouterCallChannel,
  type RouterLine,
  type RouterPushLine,
} from '../messaging/router-messages';

/** A runtime Port as the background takes it (browser.runtime.Port fits). */
interface RouterPort {
  name: string;
  sender?: AttestedSender;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port?: object) => void): void };
  disconnect(): void;
}

/** The slice of the browser this needs. */
interface RouterLinesBrowser {
  runtime: {
    onConnect: { addListener(listener: (port: RouterPort) => void): void };
    sendMessage(message: MessageOf<RouterCallChannel, 'host/connect-router'>): Promise<unknown>;
    lastError?: { message?: string } | undefined;
  };
}

interface RouterLinesOptions {
  extension: ExtensionIdentity;
  /** What the router answers (read when a line opens: the router may be made after this). */
  handlers(): LineHandlers<RouterLine>;
  /** Chrome: hold news that finds no line and call the host. */
  callHostWhenAway: boolean;
}

/** Takes the host's lines; `notifyHost` pushes to every open one (the router's ToolRouterPorts.notifyHost). */
export function setUpRouterLines(
  browser: RouterLinesBrowser,
  options: RouterLinesOptions,
): { notifyHost(message: BackgroundToHostMessage): void } {
  const lines = new Set<RequestLine<RouterPushLine>>();
  const held = new Map<number, BackgroundToHostMessage>();
  let calling = false;
  const push = (line: RequestLine<RouterPushLine>, message: BackgroundToHostMessage) =>
    line.notify(message.type, { tabId: message.tabId, snapshot: message.snapshot });

  browser.runtime.onConnect.addListener((port) => {
    if (!acceptExtensionPort(port, ROUTER_PORT_NAME, options.extension)) return;
    const line = createRequestLine<RouterPushLine, RouterLine>({
      transport: portTransport(port, () => browser.runtime.lastError?.message),
      handlers: options.handlers(),
      // Heard only to keep this service worker awake while a call waits (Chrome stops an idle one).
      notices: { 'router/keepalive': () => undefined },
    });
    lines.add(line);
    line.onClose(() => lines.delete(line));
    for (const message of held.values()) push(line, message);
    held.clear();
  });

  return {
    notifyHost(message) {
      if (lines.size > 0) {
        for (const line of lines) push(line, message);
        return;
      }
      if (!options.callHostWhenAway) return;
      held.set(message.tabId, message);
      if (calling) return;
      calling = true;
      void browser.runtime
        .sendMessage({ type: 'host/connect-router' })
        .catch(() => undefined)
        .finally(() => {
          calling = false;
        });
    },
  };
}
