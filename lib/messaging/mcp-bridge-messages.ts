/**
 * The channels of the bridge to desktop agents (docs/security.md § 7), declared once for every end
 * (lib/messaging/channel.ts):
 *
 *   native host ⇄ (native messaging) ⇄ background ⇄ (runtime messages, Chrome) ⇄ agent host ⇄ (Port) ⇄ panel, options
 *
 * - What the native host and the extension say: bridge/src/protocol.ts (the Node package's own declaration).
 * - `native-link/…`: Chrome's offscreen agent host has no runtime.connectNative, no tabs and no notifications; it
 *   asks the background, which holds the native Port (and keeps the service worker alive while it is open). On
 *   Firefox the background page is the host and calls the same functions directly.
 * - `sharing/…`: the side panel and the options page ⇄ the agent host, on the Port `webmcp-agent-sharing`, taken only
 *   from the extension's own pages: turning sharing on, sharing a site or a tab, stopping, and what is shared now.
 */
import type { ExtensionToHost, ExtensionToServer, HostToExtension, ServerToExtension } from '../../bridge/src/protocol';
import type { MessageOf } from './channel';

export type {
  BridgeCallResult,
  BridgeContent,
  BridgeTool,
  HostBusyReason,
  HostUnpairedReason,
  ServerAsks,
} from '../../bridge/src/protocol';
/** The native host's name, as the bridge package installs it (runtime.connectNative asks for it). */
export { NATIVE_HOST_NAME } from '../../bridge/src/extension-ids';

/** What the extension may get from the native host: the MCP server's requests (stamped with a client) and the host's own. */
export type NativeInbound = (ServerToExtension & { clientId: string }) | HostToExtension;
/** What the extension sends the native host. */
export type NativeOutbound = ExtensionToServer | ExtensionToHost;

/** The native Port's state, as the background sees it. */
export type NativeLinkState = { state: 'closed' } | { state: 'open' } | { state: 'failed'; error: string };

/** A tab as the bridge needs it: its id and what it shows. Its title is page text. */
export interface BridgeTabInfo {
  tabId: number;
  url?: string;
  title?: string;
}

/** A notification that a desktop agent's call waits for the person (no panel shows that tab). */
export interface BridgeNotification {
  id: string;
  tabId: number;
  title: string;
  /** The question; the background adds how to answer it (lib/background/open-waiting-question.ts howToAnswer). */
  message: string;
}

/** Agent host → background (Chrome; runtime.sendMessage, taken only from the extension's own pages). */
export interface NativeLinkChannel {
  /** Opens the native Port (connectNative) unless it is open: the state after. */
  'native-link/open': { request: object; answer: NativeLinkState };
  /** Closes it: the native host ends, and every desktop agent is disconnected. */
  'native-link/close': { request: object; answer: NativeLinkState };
  /** One message to the native host. */
  'native-link/post': { request: { message: NativeOutbound }; answer: boolean };
  /** Every tab's id, URL and title. */
  'native-link/tabs': { request: object; answer: BridgeTabInfo[] };
  /** Shows (or replaces) a notification. */
  'native-link/notify': { request: { notification: BridgeNotification }; answer: boolean };
  'native-link/clear-notification': { request: { id: string }; answer: boolean };
}

/** Background → agent host, pushed (runtime.sendMessage broadcast; the host hears only the extension's own contexts). */
export interface NativeLinkPushChannel {
  /** A message from the native host. Checked field by field by the receiver. */
  'native-link/message': { request: { message: unknown }; answer: undefined };
  /** The Port opened, closed or failed (and why). */
  'native-link/state': { request: { state: NativeLinkState }; answer: undefined };
  /** A tab opened, closed or loaded another page, while the Port is open. */
  'native-link/tabs-changed': { request: object; answer: undefined };
}

/** The Port the side panel and the options page open to the agent host for sharing. */
export const SHARING_PORT_NAME = 'webmcp-agent-sharing';

/** One desktop agent connected now. Its name is what it calls itself (cleaned). */
export interface SharingClient {
  id: string;
  name: string;
  version?: string;
}

/** What is shared, and with whom, as the panel and the options page show it. */
export interface SharingState {
  /** The person turned sharing with desktop agents on (options page). */
  enabled: boolean;
  /** The native Port: open, closed, or why it failed ("not installed", "another browser shares"). */
  link: NativeLinkState;
  clients: SharingClient[];
  /** Sites (origins) shared in every tab. */
  sites: string[];
  /** Single tabs shared while they show `site`. */
  tabs: { tabId: number; site: string; title?: string }[];
  /** The tab the panel shows: its site and how it is shared. */
  tab?: { tabId: number; site?: string; shared: 'site' | 'tab' | false };
  /** Firefox: a pairing code is kept (bridge/src/pairing.ts). */
  paired: boolean;
}

/** Side panel, options page → agent host (Port SHARING_PORT_NAME). */
export interface SharingChannel {
  /** Which tab this panel shows (none: the options page); the host answers with sharing/state now and on every change. */
  'sharing/watch': { request: { tabId?: number }; answer: undefined };
  'sharing/set-enabled': { request: { enabled: boolean }; answer: undefined };
  /** Share the tab's site (every tab on it) or just this tab, while it shows that site. */
  'sharing/share': { request: { tabId: number; scope: 'site' | 'tab' }; answer: undefined };
  /** Stop sharing a site, or one tab. Its desktop agents' waiting calls end, and their tools leave the list. */
  'sharing/stop': { request: { site?: string; tabId?: number }; answer: undefined };
  /** Firefox: the pairing code `npm run bridge -- install` printed, typed by the person (bridge/src/pairing.ts). */
  'sharing/pair': { request: { code: string }; answer: undefined };
}

/** Agent host → side panel, options page. */
export interface SharingEventChannel {
  'sharing/state': { request: { state: SharingState }; answer: undefined };
}

/** A sharing intent. */
export type SharingIntent = MessageOf<SharingChannel, keyof SharingChannel & string>;

/**
 * What the agent host's bridge uses of the browser (lib/mcp-bridge/create-mcp-bridge.ts): the background's native
 * link (lib/background/create-native-link.ts) on Firefox, its client over `native-link/…`
 * (lib/host/create-native-link-client.ts) on Chrome.
 */
export interface BridgeBrowser {
  open(): Promise<NativeLinkState>;
  close(): Promise<NativeLinkState>;
  post(message: NativeOutbound): Promise<boolean>;
  tabs(): Promise<BridgeTabInfo[]>;
  notify(notification: BridgeNotification): Promise<boolean>;
  clearNotification(id: string): Promise<boolean>;
  /** Messages from the native host, the Port's state, and tab changes while it is open. */
  subscribe(listener: BridgeBrowserListener): () => void;
}

/** What a BridgeBrowser's subscriber hears. */
export interface BridgeBrowserListener {
  message?(message: unknown): void;
  state?(state: NativeLinkState): void;
  tabsChanged?(): void;
}
