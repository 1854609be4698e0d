/**
 * What travels between the MCP server (`webmcp-agent-bridge serve`, started by the desktop agent), the
 * native-messaging host (`native-host`, started by the browser) and the extension. One JSON message per line on the
 * local socket, one framed message on native messaging (native-messaging.ts).
 *
 *   desktop agent ⇄ stdio (MCP) ⇄ serve ⇄ local socket ⇄ native-host ⇄ native messaging ⇄ extension
 *
 * The host only relays: it stamps each message from a socket with that connection's `clientId` (whatever the line
 * said) and sends the extension's answers back to the connection they name. Every decision (what is shared, the
 * names, the person's confirmation) is the extension's, which reads these types from here
 * (lib/messaging/mcp-bridge-messages.ts) and checks every field it gets.
 */

/** Bumped when a message changes shape; the extension refuses a hello of another version. */
export const BRIDGE_PROTOCOL = 1;

/** The MCP client, as it named itself in `initialize` (clientInfo). */
export interface BridgeClientInfo {
  name: string;
  version?: string;
}

/** One tool as the desktop agent sees it (an MCP Tool). */
export interface BridgeTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean };
}

/** One content block of a result (an MCP CallToolResult's content). */
export type BridgeContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A call's result (an MCP CallToolResult). */
export interface BridgeCallResult {
  content: BridgeContent[];
  isError?: boolean;
}

/** serve → extension (through the host, which adds `clientId`). Requests carry an `id` the reply repeats. */
export type ServerToExtension =
  /** First, on every connection: who the client is, and the nonce of the delimiter the server's instructions name. */
  | { type: 'client/hello'; id: string; protocol: number; client: BridgeClientInfo; nonce: string }
  | { type: 'tools/list'; id: string }
  | { type: 'tools/call'; id: string; name: string; arguments: Record<string, unknown> }
  /** The desktop agent gave up on a call (MCP notifications/cancelled): its question in the panel ends. */
  | { type: 'tools/cancel'; id: string };

/** The kinds a connection may send: the host relays these and drops every other line (the host's own kinds above all). */
export const SERVER_TO_EXTENSION_TYPES: ReadonlySet<string> = new Set<ServerToExtension['type']>([
  'client/hello',
  'tools/list',
  'tools/call',
  'tools/cancel',
]);

/** Why a host stops without serving: `other-browser` (another browser's host holds the socket), `no-socket` (it could not listen). */
export type HostBusyReason = 'other-browser' | 'no-socket';
/** Why a Firefox host refuses: `no-code` (none installed on this computer), `mismatch` (the extension's proof was wrong). */
export type HostUnpairedReason = 'no-code' | 'mismatch';

/**
 * The host → extension, of its own. Never with a `clientId` but `client/gone`'s. The extension shows the person its
 * own words for each kind and `reason` (lib/background/explain-host-notice.ts), never `message`, which is for older
 * extensions and the host's log: a line on the socket is data, whoever wrote it.
 */
export type HostToExtension =
  /** A socket connection closed: its client is gone. */
  | { type: 'client/gone'; clientId: string }
  /** Another browser's host already serves the socket, or the socket cannot be opened: this one stops. */
  | { type: 'host/busy'; reason: HostBusyReason; message: string }
  /** Firefox: prove you hold the pairing code (pairing.ts) before the socket opens. */
  | { type: 'host/challenge'; nonce: string }
  /** Firefox: no pairing code on this computer, or the proof did not match: this host stops. */
  | { type: 'host/unpaired'; reason: HostUnpairedReason; message: string };

/** The extension → the host, of its own: the answer to host/challenge. */
export interface ExtensionToHost {
  type: 'host/proof';
  /** HMAC-SHA256(pairing code, nonce), hex. */
  proof: string;
}

/** The extension's answer to one request. */
export type Reply = { type: 'reply'; id: string; result: unknown } | { type: 'reply'; id: string; error: { message: string } };

/** What the answers to each request hold. */
export interface ReplyResults {
  'client/hello': { extension: string };
  'tools/list': { tools: BridgeTool[] };
  'tools/call': BridgeCallResult;
}

/** The kinds of request that get a reply. */
export type RequestType = keyof ReplyResults & ServerToExtension['type'];
/** A request's own fields (its kind and id are the line's). */
export type RequestFields<T extends RequestType> = Omit<Extract<ServerToExtension, { type: T }>, 'type' | 'id'>;

/**
 * The requests as a request line's asks (create-request-line.ts), read by both ends (bridge-link.ts, and the
 * extension's lib/mcp-bridge/create-native-lines.ts): each kind's fields, its reply's result, and a call's updates
 * (`tools/waiting`: the person's wait). A cancel is `tools/cancel`; the wire is unchanged (BRIDGE_PROTOCOL 1).
 */
export type ServerAsks = { [T in RequestType]: { request: RequestFields<T>; answer: ReplyResults[T]; update: string } };

/** The extension → serve (through the host). With `clientId` the host sends it to that connection only; without, to all. */
export type ExtensionToServer =
  | (Reply & { clientId?: string })
  /** The shared tools changed (a page's tools, a site shared or no longer, a tab closed): MCP list_changed. */
  | { type: 'tools/list-changed'; clientId?: string }
  /** A running call waits for the person's answer in the browser (serve reports progress to the client). */
  | { type: 'tools/waiting'; clientId?: string; id: string; message: string };

/** The host → serve, first on every connection. */
export interface HostHello {
  type: 'host/hello';
  /** The browser family that started the host. */
  browser: 'chrome' | 'firefox';
}

/** Whether a value is a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
