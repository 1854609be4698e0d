/**
 * The browser's side of the bridge to desktop agents, where runtime.connectNative lives: the background (Chrome's
 * offscreen document has no connectNative, tabs or notifications API, checked on Chromium 156). It holds the one
 * native Port to the local host (bridge/src/native-host.ts), lists tabs, says when they change, and shows the
 * notification of a call waiting for the person. On Firefox the agent host (the background page) calls it
 * directly; on Chrome it answers the offscreen host's `native-link/…` messages (serveNativeLink).
 *
 * Only the extension's own contexts reach it: content scripts have no connectNative at all, and the background
 * takes `native-link/…` messages only from extension pages (isHostSender). What comes from the host is data: the
 * host's own notices are shown in the extension's words (explainHostNotice), and a line that claims to be one but
 * carries a connection's `clientId` (a program on the socket speaking through an older host) is dropped.
 */
import { type ChannelHandlers, handleMessage } from '../messaging/channel';
import type {
  BridgeBrowser,
  BridgeBrowserListener,
  BridgeNotification,
  NativeLinkChannel,
  NativeLinkPushChannel,
  NativeLinkState,
} from '../messaging/mcp-bridge-messages';
import type { MessageOf } from '../messaging/channel';
import { NATIVE_HOST_NAME } from '../messaging/mcp-bridge-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import { isRecord } from '../shared/is-record';
import { explainHostNotice } from './explain-host-notice';
import { howToAnswer, openWaitingQuestion, type WaitingQuestionBrowser } from './open-waiting-question';

/** A native Port (runtime.Port from connectNative). */
interface NativePort {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port: { error?: { message?: string } }) => void): void };
}

interface NativeLinkDeps {
  connectNative(name: string): NativePort;
  /** Chrome reports why a Port closed in runtime.lastError; Firefox on the Port. */
  lastError?: () => string | undefined;
  queryTabs(): Promise<{ id?: number; url?: string; title?: string }[]>;
  /** tabs.onCreated/onUpdated/onRemoved, as one listener. */
  onTabsChanged(listener: () => void): void;
  notifications?: {
    create(id: string, options: { type: 'basic'; title: string; message: string; iconUrl: string }): Promise<unknown>;
    clear(id: string): Promise<unknown>;
    onClicked(listener: (id: string) => void): void;
  };
  /** What a click on a waiting question's notification uses to lead the person to it (open-waiting-question.ts). */
  questions?: WaitingQuestionBrowser;
  iconUrl?: string;
}

/** Creates the link (closed until open()). */
export function createNativeLink(deps: NativeLinkDeps): BridgeBrowser {
  const listeners = new Set<BridgeBrowserListener>();
  let port: NativePort | undefined;
  let state: NativeLinkState = { state: 'closed' };
  /** The host said why it stops (another browser shares), before the Port closed. */
  let busy: string | undefined;
  const notified = new Map<string, number>();
  let tabsTimer: ReturnType<typeof setTimeout> | undefined;

  const setState = (next: NativeLinkState) => {
    state = next;
    for (const listener of [...listeners]) listener.state?.(next);
  };

  deps.onTabsChanged(() => {
    if (!port || tabsTimer !== undefined) return;
    tabsTimer = setTimeout(() => {
      tabsTimer = undefined;
      for (const listener of [...listeners]) listener.tabsChanged?.();
    }, 50);
  });
  // Synchronously: the panel opens only while the browser still counts the click (open-waiting-question.ts).
  deps.notifications?.onClicked((id) => {
    const tabId = notified.get(id);
    if (tabId !== undefined && deps.questions) void openWaitingQuestion(tabId, deps.questions).catch(() => undefined);
  });

  return {
    async open() {
      if (port) return state;
      busy = undefined;
      let opened: NativePort;
      try {
        opened = deps.connectNative(NATIVE_HOST_NAME);
      } catch (error) {
        setState({ state: 'failed', error: explainNativeError(String((error as Error)?.message ?? error)) });
        return state;
      }
      port = opened;
      opened.onMessage.addListener((message) => {
        if (port !== opened || isForgedHostNotice(message)) return;
        busy = explainHostNotice(message) ?? busy;
        for (const listener of [...listeners]) listener.message?.(message);
      });
      opened.onDisconnect.addListener((p) => {
        if (port !== opened) return;
        port = undefined;
        const why = busy ?? explainNativeError(p?.error?.message ?? deps.lastError?.() ?? '');
        setState({ state: 'failed', error: why });
      });
      setState({ state: 'open' });
      return state;
    },
    async close() {
      const open = port;
      port = undefined;
      try {
        open?.disconnect();
      } catch {
        // Already gone.
      }
      setState({ state: 'closed' });
      return state;
    },
    async post(message) {
      if (!port) return false;
      try {
        port.postMessage(message);
        return true;
      } catch {
        return false;
      }
    },
    async tabs() {
      const tabs = await deps.queryTabs();
      return tabs.filter((t) => typeof t.id === 'number').map((t) => ({ tabId: t.id!, url: t.url, title: t.title }));
    },
    async notify(notification) {
      if (!deps.notifications) return false;
      notified.set(notification.id, notification.tabId);
      const tab = (await deps.queryTabs().catch(() => [])).find((t) => t.id === notification.tabId);
      await deps.notifications.create(notification.id, {
        type: 'basic',
        title: notification.title,
        message: `${notification.message} ${howToAnswer(cleanPageText(tab?.title ?? '', { oneLine: true, max: 60 }))}`,
        iconUrl: deps.iconUrl ?? '',
      });
      return true;
    },
    async clearNotification(id) {
      notified.delete(id);
      await deps.notifications?.clear(id);
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A browser's reason for a closed native Port, in words the person can act on. */
export function explainNativeError(raw: string): string {
  if (/not found|no such native application/i.test(raw)) {
    return 'The bridge is not installed on this computer. In a WebMCP Agent clone, run `npm run bridge -- install`, then turn sharing off and on here.';
  }
  if (/forbidden/i.test(raw)) {
    return "The installed bridge does not name this extension. Run `npm run bridge -- install` again (with --extension-id for a store copy's id).";
  }
  if (raw.trim() === '') return 'The bridge stopped.';
  return `The bridge stopped (${raw.slice(0, 200)}).`;
}

/** A `host/…` kind with a connection's `clientId`: an older host relayed it from a program on the socket. */
function isForgedHostNotice(message: unknown): boolean {
  return isRecord(message) && typeof message.type === 'string' && message.type.startsWith('host/') && 'clientId' in message;
}

/** Answers the offscreen host's `native-link/…` messages (Chrome), or undefined for other messages. */
export function serveNativeLink(link: BridgeBrowser, message: unknown): Promise<unknown> | undefined {
  const handlers: ChannelHandlers<NativeLinkChannel> = {
    'native-link/open': () => link.open(),
    'native-link/close': () => link.close(),
    'native-link/post': (m) => link.post(m.message),
    'native-link/tabs': () => link.tabs(),
    'native-link/notify': (m) => (isNotification(m.notification) ? link.notify(m.notification) : false),
    'native-link/clear-notification': (m) => (typeof m.id === 'string' ? link.clearNotification(m.id) : false),
  };
  return handleMessage(handlers, message, undefined);
}

function isNotification(value: unknown): value is BridgeNotification {
  const n = value as BridgeNotification;
  return (
    typeof n === 'object' &&
    n !== null &&
    typeof n.id === 'string' &&
    Number.isInteger(n.tabId) &&
    typeof n.title === 'string' &&
    typeof n.message === 'string'
  );
}

/** Forwards the link's events to the offscreen host (Chrome: runtime.sendMessage broadcast). */
export function pushNativeLinkEvents(
  link: BridgeBrowser,
  send: (message: MessageOf<NativeLinkPushChannel, keyof NativeLinkPushChannel & string>) => void,
): void {
  link.subscribe({
    message: (message) => send({ type: 'native-link/message', message }),
    state: (state) => send({ type: 'native-link/state', state }),
    tabsChanged: () => send({ type: 'native-link/tabs-changed' }),
  });
}
