/**
 * The desktop agents connected now, one per socket connection the native host stamps with a `clientId`. A client is
 * known once it said hello with this end's protocol and the nonce of its delimiter; each holds the origins whose
 * tools' results it got, its guard (the cross-origin and outcome-unknown questions) and its calls in flight.
 */
import type { ToolDescriptor, ToolOutput } from '../agent/types';
import type { ClientCallRequest } from '../messaging/client-call-request';
import type { SharingClient } from '../messaging/mcp-bridge-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import { isRecord } from '../shared/is-record';

/** The protocol version this end speaks (bridge/src/protocol.ts BRIDGE_PROTOCOL). */
const PROTOCOL = 1;
/** Most characters of a client's name as shown. */
const MAX_CLIENT_NAME = 60;
/** Most clients at once (each is a process the person started). */
const MAX_CLIENTS = 16;

/** A tool's identity for policy: the origin of the frame that owns it and its own name. */
interface GuardedTool {
  origin?: string;
  originalName: string;
}

/**
 * What a client's guard judges: the questions a desktop agent's calls get whatever the policy says. The host's run
 * guard, told no site, fits (lib/host/create-run-guard.ts); the composition root makes it.
 */
export interface ClientGuard {
  /** Why this call must ask (the client read another origin's data, or an earlier outcome went unknown). */
  mustAsk(identity: GuardedTool, held: readonly string[]): ClientCallRequest['force'];
  /** The call's output as the client gets it, remembering a call whose outcome is unknown. */
  settle(tool: ToolDescriptor, identity: GuardedTool, output: ToolOutput): ToolOutput;
}

/** A call in flight, with the site and tab it runs on. */
interface ClientCall {
  controller: AbortController;
  site: string;
  tabId: number;
}

/** One connected desktop agent. */
export interface DesktopClient {
  id: string;
  name: string;
  version?: string;
  spotlight: Spotlight;
  /** The origins whose tools' results this client has had: each result counts as the origin of the tool's frame. */
  read: Set<string>;
  /** Its guard, for the cross-origin and outcome-unknown questions. */
  guard: ClientGuard;
  /** Its calls in flight, by request id, with the site each runs on. */
  calls: Map<string, ClientCall>;
}

/** The registry. */
export interface ClientRegistry {
  /** How many clients are connected. */
  size(): number;
  get(clientId: string): DesktopClient | undefined;
  ids(): string[];
  /**
   * A hello (its fields untrusted): the refusal's text, or undefined when the client is now known (again: a client
   * that says hello twice keeps what it read, its guard and its calls).
   */
  hello(clientId: string, message: { protocol?: unknown; nonce?: unknown; client?: unknown }): string | undefined;
  /** Forgets a client and ends its calls; false when it was not known. */
  drop(clientId: string): boolean;
  /** The clients as the panel shows them. */
  list(): SharingClient[];
  /** Ends every call in flight that `match`es. */
  stopCallsOn(match: (call: { site: string; tabId: number }) => boolean): void;
}

/** Creates the registry; `createGuard` makes a new client's guard (the host's run guard, told no site). */
export function createClientRegistry(deps: { createGuard: () => ClientGuard }): ClientRegistry {
  const clients = new Map<string, DesktopClient>();
  return {
    size: () => clients.size,
    get: (clientId) => clients.get(clientId),
    ids: () => [...clients.keys()],
    hello(clientId, message) {
      const nonce = typeof message.nonce === 'string' ? message.nonce : '';
      if (message.protocol !== PROTOCOL) return `This extension speaks bridge protocol ${PROTOCOL}: update the bridge.`;
      if (!/^[0-9a-f]{16,32}$/.test(nonce)) return 'The hello carried no usable nonce.';
      if (!clients.has(clientId) && clients.size >= MAX_CLIENTS) return 'Too many desktop agents are connected.';
      const info: Record<string, unknown> = isRecord(message.client) ? message.client : {};
      const name = cleanPageText(typeof info.name === 'string' ? info.name : '', { oneLine: true, max: MAX_CLIENT_NAME }) || 'MCP client';
      const version = cleanPageText(typeof info.version === 'string' ? info.version : '', { oneLine: true, max: 30 });
      const known = clients.get(clientId);
      clients.set(clientId, {
        id: clientId,
        name,
        ...(version ? { version } : {}),
        spotlight: createSpotlight(nonce),
        read: known?.read ?? new Set(),
        guard: known?.guard ?? deps.createGuard(),
        calls: known?.calls ?? new Map(),
      });
      return undefined;
    },
    drop(clientId) {
      const client = clients.get(clientId);
      if (!client) return false;
      for (const call of client.calls.values()) call.controller.abort();
      clients.delete(clientId);
      return true;
    },
    list: () => [...clients.values()].map((c) => ({ id: c.id, name: c.name, ...(c.version ? { version: c.version } : {}) })),
    stopCallsOn(match) {
      for (const client of clients.values()) for (const call of client.calls.values()) if (match(call)) call.controller.abort();
    },
  };
}
