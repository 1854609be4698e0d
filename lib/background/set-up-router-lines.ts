/**
 * Chrome's line from the tool router to the agent host (lib/messaging/router-messages.ts RouterLine, RouterPushLine).
 * The background opens it (runtime.connect, ROUTER_PORT_NAME), never the host: a runtime.onConnect listener here
 * would hold open every Port a side panel opens to a host that is gone. On it the host asks for snapshots and calls
 * (router-host-handlers.ts) and hears the router's pushes; a call's cancel reaches the router's handler as an aborted
 * signal, and when the Port closes (the host went away) every call it asked for is cancelled with the line's error.
 *
 * The line opens when the host may be there (this service worker started and the host's document is up), when the
 * host asks for one (`router/connect`, from the extension's own pages only: isHostSender), and when the router has
 * news and no line. News that finds no line the host took (`router/ready`) is held, the latest per tab, and goes
 * first on the next. A closed line is not reopened otherwise, so that an idle service worker may stop. Firefox's host
 * is the background page and uses the router directly: nothing of this runs there.
 */
import { createRequestLine, type LineHandlers, LineClosedError, type RequestLine } from '../messaging/create-request-line';
import { isMessage } from '../messaging/channel';
import { isHostSender } from '../messaging/is-host-sender';
import { portTransport } from '../messaging/port-transport';
import {
  type BackgroundToHostMessage,
  ROUTER_PORT_NAME,
  type RouterChannel,
  type RouterLine,
  type RouterPushLine,
} from '../messaging/router-messages';
import type { RuntimeMessageEvent } from './runtime-message-event';

/** The error the calls of a host that went away are cancelled with. */
const HOST_LINE_CLOSED = 'The agent host went away';

/** The slice of the browser this needs. */
interface RouterLinesBrowser {
  runtime: {
    connect(info: { name: string }): Parameters<typeof portTransport>[0];
    lastError?: { message?: string } | undefined;
    onMessage: RuntimeMessageEvent;
  };
}

interface RouterLinesOptions {
  /** The extension's id and origin (runtime.id, runtime.getURL('/')): who may ask for a line. */
  extension: { id: string; origin: string };
  /** What the router answers (read when a line opens: the router may be made after this). */
  handlers(): LineHandlers<RouterLine>;
  /** Settles once the host's document was started (set-up-offscreen-host.ts): the first line opens then. */
  hostDocumentUp(): Promise<unknown>;
}

/** Opens the host's lines; `notifyHost` pushes on the line (the router's ToolRouterPorts.notifyHost). */
export function setUpRouterLines(
  browser: RouterLinesBrowser,
  options: RouterLinesOptions,
): { notifyHost(message: BackgroundToHostMessage): void } {
  /** The line, and whether the host took it. */
  let current: { line: RequestLine<RouterPushLine>; ready: boolean } | undefined;
  /**
   * Someone wanted a line while one was opening (the host asked, or news came): if that one closes before the host
   * took it (its document was not listening yet), one more is opened.
   */
  let wanted = false;
  const held = new Map<number, BackgroundToHostMessage>();
  const push = (line: RequestLine<RouterPushLine>, message: BackgroundToHostMessage) =>
    line.notify(message.type, { tabId: message.tabId, snapshot: message.snapshot });

  const open = () => {
    if (current && !current.line.closed()) {
      if (!current.ready) wanted = true;
      return;
    }
    wanted = false;
    let port: Parameters<typeof portTransport>[0];
    try {
      port = browser.runtime.connect({ name: ROUTER_PORT_NAME });
    } catch {
      return; // The extension is reloading: nothing to connect to.
    }
    const opened = { line: undefined as unknown as RequestLine<RouterPushLine>, ready: false };
    opened.line = createRequestLine<RouterPushLine, RouterLine>({
      transport: portTransport(port, () => browser.runtime.lastError?.message),
      handlers: options.handlers(),
      notices: {
        // Heard only to keep this service worker awake while a call waits (Chrome stops an idle one).
        'router/keepalive': () => undefined,
        'router/ready': () => {
          if (opened.ready) return;
          opened.ready = true;
          for (const message of held.values()) push(opened.line, message);
          held.clear();
        },
      },
      closedError: (detail) => new LineClosedError(`${HOST_LINE_CLOSED}${detail ? `: ${detail}` : '.'}`),
    });
    current = opened;
    opened.line.onClose(() => {
      if (current === opened && !opened.ready && wanted) open();
    });
  };

  void options.hostDocumentUp().then(open);
  browser.runtime.onMessage.addListener((message, sender) => {
    if (!isMessage<RouterChannel, 'router/connect'>(message, 'router/connect')) return false;
    if (isHostSender(sender, options.extension.id, options.extension.origin)) open();
    return false;
  });

  return {
    notifyHost(message) {
      if (current?.ready && !current.line.closed()) {
        push(current.line, message);
        // A Port that turned out gone closes the line as it sends: the news is held for the next.
        if (!current.line.closed()) return;
      }
      held.set(message.tabId, message);
      open();
    },
  };
}
