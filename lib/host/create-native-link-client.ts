/**
 * The bridge's browser side as Chrome's offscreen agent host reaches it: `native-link/…` messages to the background,
 * which holds the native Port (lib/background/create-native-link.ts), and its pushes back.
 */
import { type ChannelHandlers, handleMessage, sendMessage } from '../messaging/channel';
import type {
  BridgeBrowser,
  BridgeBrowserListener,
  NativeLinkChannel,
  NativeLinkPushChannel,
  NativeLinkState,
} from '../messaging/mcp-bridge-messages';

interface NativeLinkClientPorts {
  /** runtime.sendMessage to the background. */
  sendMessage(message: unknown): Promise<unknown>;
  /** runtime.onMessage.addListener, already limited to the extension's own contexts. */
  onMessage(listener: (message: unknown) => void): void;
}

/** Creates the client. */
export function createNativeLinkClient(ports: NativeLinkClientPorts): BridgeBrowser {
  const listeners = new Set<BridgeBrowserListener>();
  const pushes: ChannelHandlers<NativeLinkPushChannel> = {
    'native-link/message': (m) => {
      for (const listener of [...listeners]) listener.message?.(m.message);
    },
    'native-link/state': (m) => {
      if (!isLinkState(m.state)) return;
      for (const listener of [...listeners]) listener.state?.(m.state);
    },
    'native-link/tabs-changed': () => {
      for (const listener of [...listeners]) listener.tabsChanged?.();
    },
  };
  ports.onMessage((message) => void handleMessage(pushes, message, undefined));
  const ask = <T extends keyof NativeLinkChannel & string>(type: T, request: NativeLinkChannel[T]['request']) =>
    sendMessage<NativeLinkChannel, T>(ports.sendMessage as never, type, request);
  const closed: NativeLinkState = { state: 'closed' };
  return {
    open: async () => {
      const state = await ask('native-link/open', {}).catch(() => undefined);
      return isLinkState(state) ? state : { state: 'failed', error: 'The extension’s background did not answer.' };
    },
    close: async () => (await ask('native-link/close', {}).catch(() => closed)) ?? closed,
    post: async (message) => (await ask('native-link/post', { message }).catch(() => false)) === true,
    tabs: async () => {
      const tabs = await ask('native-link/tabs', {}).catch(() => []);
      return Array.isArray(tabs) ? tabs : [];
    },
    notify: async (notification) => (await ask('native-link/notify', { notification }).catch(() => false)) === true,
    clearNotification: async (id) => (await ask('native-link/clear-notification', { id }).catch(() => false)) === true,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function isLinkState(value: unknown): value is NativeLinkState {
  const s = value as NativeLinkState;
  if (typeof s !== 'object' || s === null) return false;
  return s.state === 'open' || s.state === 'closed' || (s.state === 'failed' && typeof s.error === 'string');
}
