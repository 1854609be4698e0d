/**
 * What the agent host needs from its context, as interfaces: Chrome's offscreen document and Firefox's background
 * page each wire their own (messages through the background, or direct calls), and tests pass real in-memory ones.
 */
import type { WebAgent } from '../agent/types';
import type { ExtensionIdentity } from '../messaging/accept-extension-port';
import type { AttestedSender } from '../messaging/is-host-sender';
import type { RouterClient } from '../messaging/router-client';
import type { AgentKind, HostEvent } from '../messaging/agent-messages';
import type { GrantCaller } from '../storage/grant-caller';
import type { Settings } from '../storage/settings';
import type { StorageArea } from '../messaging/storage-area';
import type { AdapterRegistry } from './create-adapter-registry';

/** The page bridge, as the host uses it: lib/background's RouterClient (the router on Firefox, its client on Chrome). */
export type HostRouterClient = RouterClient;

/**
 * The settings the host reads, and the few it writes on the person's behalf from the panel. The settings store
 * (lib/storage/settings-store.ts) fits it as it is.
 */
export interface HostSettingsPort {
  read(): Promise<Pick<Settings, 'mode' | 'confirmation' | 'grants'>>;
  /** The "Agent" control. */
  setMode(mode: AgentKind): Promise<void>;
  /** "Always on this site", for the caller that was asked about (lib/storage/grant-caller.ts). */
  grantTool(origin: string, tool: string, caller: GrantCaller): Promise<void>;
  /** The page agent (req.agent) for a page, from the site profiles. */
  siteAgentFor(pageUrl: string | undefined): Promise<WebAgent | undefined>;
}

/** A runtime Port, as the host sees it (browser.runtime.Port fits). */
export interface HostPort {
  name: string;
  postMessage(message: HostEvent): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  /** Who opened it, as the browser attests (runtime.Port.sender). */
  sender?: AttestedSender;
  disconnect?(): void;
}

export interface AgentHostDeps {
  bridge: HostRouterClient;
  settings: HostSettingsPort;
  adapters: AdapterRegistry;
  /** Remembers the model picked for an adapter (adapters that remember it themselves need nothing here). */
  saveModel?: (kind: AgentKind, modelId: string) => Promise<void>;
  /** storage.local (conversations) and storage.session (the browser session id). */
  storage: { local: StorageArea; session: StorageArea };
  /** browser.runtime.onConnect, or anything shaped like it. */
  onConnect: { addListener(listener: (port: HostPort) => void): void };
  /** Secret strings no export may contain (the saved API key). */
  secrets?: () => Promise<string[]>;
  /** Ports from anything but the extension's own pages (content scripts above all) are refused. */
  extension: ExtensionIdentity;
  /** Ids for user messages and confirmations. Default crypto.randomUUID. */
  generateId?: () => string;
  /** How long conversation writes are held back to batch streamed parts. Default 250 ms. */
  saveDelayMs?: number;
  /** How long panel updates are held back to batch streamed parts. Default 30 ms. */
  emitDelayMs?: number;
}
