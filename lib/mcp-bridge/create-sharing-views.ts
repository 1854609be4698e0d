/**
 * The side panels and the options page that watch what is shared, each on its Port (SHARING_PORT_NAME). Only the
 * extension's own pages may open one: a content script can open a Port of this name, and must neither turn sharing
 * on nor share its own site. Each view hears the state of the tab it watches now and on every change.
 */
import type { AttestedSender } from '../messaging/is-host-sender';
import { type ChannelHandlers, handleMessage, type MessageOf } from '../messaging/channel';
import type { SharingChannel, SharingEventChannel, SharingState } from '../messaging/mcp-bridge-messages';
import { SHARING_PORT_NAME } from '../messaging/mcp-bridge-messages';
import { acceptExtensionPort, type ExtensionIdentity } from '../messaging/accept-extension-port';

/** A Port from the side panel or the options page. */
export interface SharingPort {
  name: string;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  sender?: AttestedSender;
  disconnect?(): void;
}

/** The sharing intents a view may send besides watching (sharing-intents.ts). */
type SharingIntentHandlers = Omit<ChannelHandlers<SharingChannel, SharingPort>, 'sharing/watch'>;

/** The views. */
interface SharingViews {
  /** Sends every view the state of what it watches. */
  broadcast(): Promise<void>;
  /** Whether a view shows this tab now. */
  watched(tabId: number): boolean;
  /** Takes a Port from runtime.onConnect: a sharing Port of the extension's own pages, or none. */
  accept(port: SharingPort, extension: ExtensionIdentity, intents: SharingIntentHandlers): void;
}

/** Creates the views; `state` computes what a view of a tab (or of none) sees now (read-sharing-state.ts). */
export function createSharingViews(state: (tabId?: number) => Promise<SharingState>): SharingViews {
  const watchers = new Map<SharingPort, { tabId?: number }>();

  const send = (port: SharingPort, value: SharingState) => {
    try {
      const event: MessageOf<SharingEventChannel, 'sharing/state'> = { type: 'sharing/state', state: value };
      port.postMessage(event);
    } catch {
      watchers.delete(port);
    }
  };
  // A view that changed what it watches while its state was computed gets only the state of what it watches now.
  const broadcast = async () => {
    for (const [port, watch] of [...watchers]) {
      const value = await state(watch.tabId);
      if (watchers.get(port) === watch) send(port, value);
    }
  };
  const watch: ChannelHandlers<SharingChannel, SharingPort>['sharing/watch'] = async (message, port) => {
    const tabId = Number.isInteger(message.tabId) ? message.tabId : undefined;
    const watching = tabId === undefined ? {} : { tabId };
    watchers.set(port, watching);
    const value = await state(tabId);
    if (watchers.get(port) === watching) send(port, value);
  };

  return {
    broadcast,
    watched: (tabId) => [...watchers.values()].some((w) => w.tabId === tabId),
    accept(port, extension, intents) {
      // A content script can open a Port of this name: it must neither turn sharing on nor share its own site.
      if (!acceptExtensionPort(port, SHARING_PORT_NAME, extension)) return;
      const handlers: ChannelHandlers<SharingChannel, SharingPort> = { 'sharing/watch': watch, ...intents };
      watchers.set(port, {});
      port.onDisconnect.addListener(() => watchers.delete(port));
      port.onMessage.addListener((message) => void handleMessage(handlers, message, port)?.catch(() => undefined));
    },
  };
}
