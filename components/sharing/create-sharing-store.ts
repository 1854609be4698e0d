/**
 * The side panel's and the options page's view of what is shared with desktop agents (lib/mcp-bridge): a Port to
 * the agent host that it reopens when it drops, the state the host sends, and the person's intents.
 */
import { type Signal, signal } from '@preact/signals';
import type { SharingIntent, SharingState } from '../../lib/messaging/mcp-bridge-messages';

/** A runtime Port as the store uses it (browser.runtime.Port fits). */
export interface SharingPortLike {
  postMessage(message: SharingIntent): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface SharingStore {
  state: Signal<SharingState | undefined>;
  /** Which tab this view shows (none: the options page). */
  watch(tabId?: number): void;
  setEnabled(enabled: boolean): void;
  share(tabId: number, scope: 'site' | 'tab'): void;
  stop(what: { site?: string; tabId?: number }): void;
  /** Firefox: keeps the pairing code the installer printed. */
  pair(code: string): void;
}

interface SharingStoreOptions {
  /** browser.runtime.connect({ name: SHARING_PORT_NAME }). */
  connect: () => SharingPortLike;
  /** Wakes whatever starts the host (Chrome's service worker) before reconnecting. */
  wake?: () => Promise<unknown>;
  retryDelayMs?: number;
}

/** Creates the store and connects. */
export function createSharingStore(options: SharingStoreOptions): SharingStore {
  const state = signal<SharingState | undefined>(undefined);
  let port: SharingPortLike | undefined;
  let watched: { tabId?: number } = {};
  const send = (intent: SharingIntent) => {
    try {
      port?.postMessage(intent);
    } catch {
      // Reconnecting: the watch is sent again, and the person can press again.
    }
  };
  const open = () => {
    const current = options.connect();
    port = current;
    current.onMessage.addListener((message) => {
      const m = message as { type?: unknown; state?: SharingState };
      if (port === current && m?.type === 'sharing/state' && typeof m.state === 'object' && m.state !== null) state.value = m.state;
    });
    current.onDisconnect.addListener(() => {
      if (port !== current) return;
      port = undefined;
      setTimeout(() => void (options.wake?.() ?? Promise.resolve()).catch(() => undefined).finally(open), options.retryDelayMs ?? 300);
    });
    send({ type: 'sharing/watch', ...watched });
  };
  open();
  return {
    state,
    watch(tabId) {
      watched = tabId === undefined ? {} : { tabId };
      send({ type: 'sharing/watch', ...watched });
    },
    setEnabled: (enabled) => send({ type: 'sharing/set-enabled', enabled }),
    share: (tabId, scope) => send({ type: 'sharing/share', tabId, scope }),
    stop: (what) => send({ type: 'sharing/stop', ...what }),
    pair: (code) => send({ type: 'sharing/pair', code }),
  };
}
