/**
 * The extension's end of the bridge to desktop agents (issue 24; docs/security.md § 7). It runs in the agent host,
 * beside the tabs' sessions, and is the only place that decides what a desktop agent may reach:
 *
 * - Nothing is shared until the person turns sharing on (options page) and shares a site or a tab (side panel).
 *   Only the extension's own pages can ask for either (the Port is checked with isHostSender).
 * - tools/list: the tools of the tabs that show a shared site (or are shared themselves), named `<origin>__<tool>`
 *   after the frame that owns each (mcp-tool-names.ts) and described as on that origin, inside which site and tab,
 *   with schemas cleaned as for the extension's own model. When they change, every client hears
 *   `tools/list-changed`.
 * - tools/call: only a name from that list, and only while its tab still shows its site and the site is still
 *   shared, and only the tool instance listed. It runs through the tab's session (runForClient): argument
 *   validation, the confirmation policy asked in the panel in the client's name (a notification when no panel shows
 *   the tab), the router, cursor and caps; the result comes back spotlighted in the client's own delimiter
 *   (to-mcp-result.ts), and only while the tab still shows the shared site.
 * - Each client holds the origins whose tools' results it got (a frame tool's result counts as its frame's origin,
 *   not the tab's site). A call to a tool of any other origin is asked about, with the arguments shown, whatever the
 *   policy says; so is a repeat of a call whose outcome went unknown (create-run-guard.ts).
 * - What a client learns from a refusal is only that no such tool is shared with it: one text for a name that never
 *   existed, a tab that closed or left its site, a site no longer shared and a tool that changed (NOT_SHARED_ERROR).
 *   No reply, error or progress message names a site, tab or tool that is not shared.
 */
import { isDebuggingTool } from '../agent/is-debugging-tool';
import { isDelegateToolName } from '../agent/select-tools';
import { formatToolError, parseToolError } from '../agent/tool-error-codes';
import type { ToolCall, ToolOutput } from '../agent/types';
import type { BridgeBrowser } from '../background/create-native-link';
import { isHostSender, type AttestedSender } from '../background/is-host-sender';
import type { ToolBridge } from '../background/tool-bridge';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { cleanDescription, cleanSchema } from '../cloud/clean-schema';
import { type ChannelHandlers, handleMessage, type MessageOf } from '../messaging/channel';
import type {
  BridgeTool,
  NativeInbound,
  NativeLinkState,
  NativeOutbound,
  SharingChannel,
  SharingClient,
  SharingEventChannel,
  SharingState,
} from '../messaging/mcp-bridge-messages';
import { SHARING_PORT_NAME } from '../messaging/mcp-bridge-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import { createSpotlight, type Spotlight } from '../page-data/spotlight';
import { hostOf } from '../shared/host-of';
import { isRecord } from '../shared/is-record';
import { webOriginOf } from '../shared/web-origin-of';
import type { StorageArea } from '../storage/storage-area';
import type { ExtensionIdentity } from '../host/agent-host-deps';
import { createRunGuard, type RunGuard } from '../host/create-run-guard';
import type { ClientCallRequest } from '../host/run-client-call';
import { createToolNames, type NamedTool } from './mcp-tool-names';
import { toMcpError, toMcpResult } from './to-mcp-result';

/** The protocol version this end speaks (bridge/src/protocol.ts BRIDGE_PROTOCOL). */
const PROTOCOL = 1;
/** Where the person's choices are kept (the extension's privileged storage; Firefox: its IndexedDB). */
const ENABLED_KEY = 'mcpBridge.enabled';
const SITES_KEY = 'mcpBridge.sites';
/** Firefox: the pairing code the person typed (bridge/src/pairing.ts); privileged storage, never a content script's. */
const PAIRING_KEY = 'mcpBridge.pairingCode';
/** Most characters of a client's name as shown. */
const MAX_CLIENT_NAME = 60;
/** Most clients at once (each is a process the person started). */
const MAX_CLIENTS = 16;

/**
 * The one answer to a call that reaches no shared tool, whatever the reason (never shared, the tab closed or left
 * its site, the site no longer shared, the tool changed): a client learns only that no such tool is shared with it.
 */
export const NOT_SHARED_ERROR = formatToolError(
  'unknown_tool',
  'No tool of that name is shared with you now. Nothing was run. List the tools to see what is shared.',
);

/**
 * Said when a call ran but its tab no longer shows a site shared with the client once it ended (the tool took the
 * tab elsewhere): what it returned is about a page the client may not see, so it stays in the browser.
 */
export const LEFT_SHARED_SITE_ERROR = formatToolError(
  'navigated',
  'The call ran, and its tab no longer shows a page shared with you, so what it returned stays in the browser. List the tools again.',
);

/** Refusals a client may hear as they are: they name only the tool it called and its arguments. */
const PLAIN_REFUSALS = new Set(['invalid_input', 'cancelled']);
/** Codes with which the router refused to run a call (the tool changed under its name): no reply names the change. */
const NOT_RUN_CODES = new Set(['tool_changed', 'unknown_tool']);

/** A Port from the side panel or the options page. */
export interface SharingPort {
  name: string;
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  sender?: AttestedSender;
  disconnect?(): void;
}

interface McpBridgeDeps {
  browser: BridgeBrowser;
  tools: Pick<ToolBridge, 'getTools' | 'subscribe'>;
  /** The tab's session (created on first use), where the call runs as an agent's would. */
  session(
    tabId: number,
  ): Promise<{ runForClient(call: ToolCall, request: ClientCallRequest): Promise<{ output: ToolOutput; ran: boolean }> }>;
  /** The privileged storage area (settings live there too). */
  storage: Pick<StorageArea, 'get' | 'set'>;
  onConnect: { addListener(listener: (port: SharingPort) => void): void };
  extension: ExtensionIdentity;
  generateId?: () => string;
  /** How long list changes are gathered before clients hear of them. Default 100 ms. */
  settleMs?: number;
}

interface Client {
  id: string;
  name: string;
  version?: string;
  spotlight: Spotlight;
  /** The origins whose tools' results this client has had: each result counts as the origin of the tool's frame. */
  read: Set<string>;
  /** Its guard, for the cross-origin and outcome-unknown questions. */
  guard: RunGuard;
  /** Its calls in flight, by request id, with the site each runs on. */
  calls: Map<string, { controller: AbortController; site: string; tabId: number }>;
}

interface SharedTool extends NamedTool {
  entry: TabToolEntry;
  title?: string;
}

/** The origin of the frame that owns a tool, as the policy knows it ("null" stays "null": a sandboxed frame). */
function frameOriginOf(entry: TabToolEntry): string {
  return webOriginOf(entry.origin) ?? entry.origin;
}

/** Where a shared tool is, in words: its frame's origin, inside which site (for a frame of another origin). */
function whereOf(tool: SharedTool): string {
  if (tool.origin === undefined) return `on ${hostOf(tool.site)}`;
  if (tool.origin === 'null') return `in a sandboxed frame inside ${hostOf(tool.site)}`;
  return `on ${hostOf(tool.origin)}, a frame inside ${hostOf(tool.site)}`;
}

/** The running bridge. */
interface McpBridge {
  /** Reads the person's choices and, when sharing is on, opens the native Port. */
  start(): Promise<void>;
  /** What is shared now, for tests; `tabId` as a panel on that tab sees it. */
  state(tabId?: number): Promise<SharingState>;
}

/** Creates the bridge. */
export function createMcpBridge(deps: McpBridgeDeps): McpBridge {
  const generateId = deps.generateId ?? (() => crypto.randomUUID());
  const names = createToolNames();
  const clients = new Map<string, Client>();
  const watchers = new Map<SharingPort, { tabId?: number }>();
  let enabled = false;
  let sites: string[] = [];
  /** Tabs shared alone, while they show their site. */
  let tabShares: { tabId: number; site: string }[] = [];
  let link: NativeLinkState = { state: 'closed' };
  let lastList: string | undefined;
  let loaded: Promise<void> | undefined;

  const isShared = (tabId: number, site: string) => sites.includes(site) || tabShares.some((t) => t.tabId === tabId && t.site === site);
  const post = (message: NativeOutbound) => void deps.browser.post(message).catch(() => undefined);
  const reply = (clientId: string, id: string, result: unknown) => post({ type: 'reply', id, clientId, result });
  const refuse = (clientId: string, id: string, message: string) => post({ type: 'reply', id, clientId, error: { message } });

  const load = () => {
    loaded ??= deps.storage
      .get([ENABLED_KEY, SITES_KEY])
      .then((stored) => {
        enabled = stored[ENABLED_KEY] === true;
        sites = Array.isArray(stored[SITES_KEY]) ? stored[SITES_KEY].filter((s): s is string => webOriginOf(s as string) === s) : [];
      })
      .catch(() => undefined);
    return loaded;
  };
  const save = () => deps.storage.set({ [ENABLED_KEY]: enabled, [SITES_KEY]: sites }).catch(() => undefined);

  /** The shared tools now, by name. Tabs that left their shared site lose a tab share on the way. */
  const listing = async (): Promise<Map<string, SharedTool>> => {
    const shared = new Map<string, SharedTool>();
    await load();
    if (!enabled) return shared;
    const tabs = await deps.browser.tabs().catch(() => []);
    const open = new Map(tabs.map((t) => [t.tabId, t]));
    tabShares = tabShares.filter((t) => webOriginOf(open.get(t.tabId)?.url) === t.site);
    for (const tab of tabs) {
      const tabSite = webOriginOf(tab.url);
      if (!tabSite || !isShared(tab.tabId, tabSite)) continue;
      const snapshot = await deps.tools.getTools(tab.tabId).catch(() => undefined);
      if (!snapshot) continue;
      // The tools are the page's the router knows: when it knows another site's page (mid-navigation), none.
      const pageSite = webOriginOf(snapshot.page?.url) ?? tabSite;
      if (pageSite !== tabSite) continue;
      const title = cleanPageText(snapshot.page?.title ?? tab.title ?? '', { oneLine: true, max: 80 });
      for (const entry of snapshot.tools) {
        // A debugging tool is the page's developers', never a desktop agent's (docs/security.md, "Debugging tools").
        if (isDelegateToolName(entry.name) || isDebuggingTool(entry)) continue;
        // A frame of another origin is named and described as what it is, never as the site around it.
        const origin = frameOriginOf(entry);
        const named: NamedTool = { tabId: tab.tabId, site: tabSite, tool: entry.name, ...(origin !== tabSite ? { origin } : {}) };
        shared.set(names.nameOf(named), { ...named, entry, ...(title ? { title } : {}) });
      }
    }
    return shared;
  };

  const toBridgeTool = (name: string, tool: SharedTool): BridgeTool => {
    const where = `${capitalize(whereOf(tool))}${tool.title ? ` (tab “${tool.title}”)` : ''}`;
    const description = cleanDescription(tool.entry.description ?? '');
    const title = tool.entry.title ? cleanPageText(tool.entry.title, { oneLine: true, max: 100 }) : undefined;
    return {
      name,
      ...(title ? { title } : {}),
      description: description ? `${where}: ${description}` : `${where}.`,
      inputSchema: { ...cleanSchema(tool.entry.inputSchema), type: 'object' },
      ...(tool.entry.annotations?.readOnlyHint === true ? { annotations: { readOnlyHint: true } } : {}),
    };
  };

  const listTools = async () => [...(await listing())].map(([name, tool]) => toBridgeTool(name, tool));

  // Clients hear when the list changed (a page's tools, a tab, what is shared), gathered over a short while.
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const listMayHaveChanged = () => {
    if (settleTimer !== undefined) return;
    settleTimer = setTimeout(async () => {
      settleTimer = undefined;
      if (clients.size === 0) return;
      const now = JSON.stringify(await listTools());
      if (lastList !== undefined && now !== lastList) post({ type: 'tools/list-changed' });
      lastList = now;
    }, deps.settleMs ?? 100);
  };

  /** Whether the tab still shows the tool's shared site, so that what it returned may reach a client. */
  const stillShared = async (tool: SharedTool) => {
    const tab = (await deps.browser.tabs().catch(() => [])).find((t) => t.tabId === tool.tabId);
    return enabled && webOriginOf(tab?.url) === tool.site && isShared(tool.tabId, tool.site);
  };

  const notifyWaiting = (client: Client, tool: SharedTool, callId: string) => {
    const watched = [...watchers.values()].some((w) => w.tabId === tool.tabId);
    if (watched) return;
    void deps.browser
      .notify({
        id: callId,
        tabId: tool.tabId,
        title: `${client.name} is waiting for you`,
        // The background adds how to answer: it knows what its browser lets a click on the notification do.
        message: `Allow ${tool.entry.name} ${whereOf(tool)}?`,
      })
      .catch(() => undefined);
  };

  const callTool = async (client: Client, id: string, name: string, input: Record<string, unknown>) => {
    const tool = (await listing()).get(name);
    if (!tool) return reply(client.id, id, toMcpError(errorOutput(NOT_SHARED_ERROR)));
    const controller = new AbortController();
    client.calls.set(id, { controller, site: tool.site, tabId: tool.tabId });
    const callId = `mcp-${generateId()}`;
    // Judged by the frame that owns the tool: what the client read on any other origin (the site around a frame
    // included) makes the call ask, whatever its annotations say.
    const identity = { origin: frameOriginOf(tool.entry), originalName: tool.entry.originalName };
    const force = client.guard.mustAsk(identity, [...client.read]);
    const { frameId, documentId, origin, originalName } = tool.entry;
    try {
      const session = await deps.session(tool.tabId);
      const { output, ran } = await session.runForClient(
        { id: callId, name: tool.entry.name, input },
        {
          client: client.name,
          site: tool.site,
          signal: controller.signal,
          ...(force ? { force } : {}),
          shown: { frameId, ...(documentId !== undefined ? { documentId } : {}), origin, originalName },
          onAsking: () => {
            post({
              type: 'tools/waiting',
              clientId: client.id,
              id,
              message: `Waiting for the person to answer in the browser (${tool.entry.name} ${whereOf(tool)}).`,
            });
            notifyWaiting(client, tool, callId);
          },
        },
      );
      const code = output.isError ? parseToolError(toolText(output))?.code : undefined;
      // A refusal before the page says nothing of where the tab went; neither does the router's "the tool changed".
      if (!ran) return reply(client.id, id, toMcpError(PLAIN_REFUSALS.has(code ?? '') ? output : errorOutput(NOT_SHARED_ERROR)));
      if (code && NOT_RUN_CODES.has(code)) return reply(client.id, id, toMcpError(errorOutput(NOT_SHARED_ERROR)));
      // A call that took its tab to a page not shared (another site, or sharing stopped meanwhile) returns what that
      // page says of itself: it stays in the browser.
      if (!(await stillShared(tool))) {
        return reply(client.id, id, toMcpError(client.guard.settle(tool.entry, identity, errorOutput(LEFT_SHARED_SITE_ERROR))));
      }
      client.read.add(identity.origin);
      const settled = client.guard.settle(tool.entry, identity, output);
      reply(
        client.id,
        id,
        toMcpResult(settled, client.spotlight, { tool: name, untrusted: tool.entry.annotations?.untrustedContentHint === true }),
      );
    } finally {
      client.calls.delete(id);
      void deps.browser.clearNotification(callId).catch(() => undefined);
    }
  };

  const dropClient = (clientId: string) => {
    const client = clients.get(clientId);
    if (!client) return;
    for (const call of client.calls.values()) call.controller.abort();
    clients.delete(clientId);
    void broadcast();
  };

  const answerChallenge = async (nonce: string) => {
    const stored = (await deps.storage.get([PAIRING_KEY]).catch((): Record<string, unknown> => ({})))[PAIRING_KEY];
    const code = typeof stored === 'string' ? stored : '';
    post({ type: 'host/proof', proof: code ? await pairingProof(code, nonce) : '' });
  };

  const onNative = (raw: unknown) => {
    if (!isRecord(raw) || typeof raw.type !== 'string') return;
    const message = raw as NativeInbound;
    if (message.type === 'host/busy' || message.type === 'host/unpaired') return;
    if (message.type === 'host/challenge') {
      // Firefox's host opens the socket only for the holder of the pairing code: the content scripts never have it.
      if (typeof message.nonce === 'string' && /^[0-9a-f]{16,64}$/.test(message.nonce)) void answerChallenge(message.nonce);
      return;
    }
    if (message.type === 'client/gone') return typeof message.clientId === 'string' ? dropClient(message.clientId) : undefined;
    const { clientId } = message;
    if (typeof clientId !== 'string' || typeof message.id !== 'string') return;
    const id = message.id.slice(0, 100);
    if (message.type === 'client/hello') {
      const nonce = typeof message.nonce === 'string' ? message.nonce : '';
      if (message.protocol !== PROTOCOL)
        return refuse(clientId, id, `This extension speaks bridge protocol ${PROTOCOL}: update the bridge.`);
      if (!/^[0-9a-f]{16,32}$/.test(nonce)) return refuse(clientId, id, 'The hello carried no usable nonce.');
      if (!clients.has(clientId) && clients.size >= MAX_CLIENTS) return refuse(clientId, id, 'Too many desktop agents are connected.');
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
        guard: known?.guard ?? createRunGuard({ site: undefined, agent: undefined, stop: () => undefined }),
        calls: known?.calls ?? new Map(),
      });
      reply(clientId, id, { extension: 'webmcp-agent' });
      void broadcast();
      return;
    }
    const client = clients.get(clientId);
    if (!client) return refuse(clientId, id, 'Say hello first.');
    if (message.type === 'tools/list') {
      void listTools().then((tools) => {
        lastList = JSON.stringify(tools);
        reply(clientId, id, { tools });
      });
      return;
    }
    if (message.type === 'tools/call') {
      const input = isRecord(message.arguments) ? message.arguments : {};
      // What went wrong stays in the extension: an exception's text could name any tab or site.
      void callTool(client, id, String(message.name ?? ''), input).catch(() =>
        reply(clientId, id, toMcpError(errorOutput('Error: the call failed in the extension.'))),
      );
      return;
    }
    if (message.type === 'tools/cancel') client.calls.get(id)?.controller.abort();
  };

  deps.browser.subscribe({
    message: onNative,
    state: (state) => {
      link = state;
      if (state.state !== 'open') {
        for (const clientId of [...clients.keys()]) dropClient(clientId);
        lastList = undefined;
      }
      void broadcast();
    },
    tabsChanged: () => {
      listMayHaveChanged();
      void broadcast();
    },
  });
  deps.tools.subscribe(() => listMayHaveChanged());

  const state = async (tabId?: number): Promise<SharingState> => {
    await load();
    const tabs = enabled ? await deps.browser.tabs().catch(() => []) : [];
    const open = new Map(tabs.map((t) => [t.tabId, t]));
    const sharedTabs = tabShares
      .filter((t) => webOriginOf(open.get(t.tabId)?.url) === t.site)
      .map((t) => {
        const title = cleanPageText(open.get(t.tabId)?.title ?? '', { oneLine: true, max: 80 });
        return { tabId: t.tabId, site: t.site, ...(title ? { title } : {}) };
      });
    let tab: SharingState['tab'];
    if (tabId !== undefined) {
      const site = webOriginOf(open.get(tabId)?.url) ?? webOriginOf((await deps.tools.getTools(tabId).catch(() => undefined))?.page?.url);
      const shared = site === undefined ? false : sites.includes(site) ? 'site' : sharedTabs.some((t) => t.tabId === tabId) ? 'tab' : false;
      tab = { tabId, ...(site ? { site } : {}), shared };
    }
    const clientList: SharingClient[] = [...clients.values()].map((c) => ({
      id: c.id,
      name: c.name,
      ...(c.version ? { version: c.version } : {}),
    }));
    const paired = typeof (await deps.storage.get([PAIRING_KEY]).catch((): Record<string, unknown> => ({})))[PAIRING_KEY] === 'string';
    return { enabled, link, clients: clientList, sites: [...sites], tabs: sharedTabs, ...(tab ? { tab } : {}), paired };
  };

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

  const stopCallsOn = (match: (call: { site: string; tabId: number }) => boolean) => {
    for (const client of clients.values()) for (const call of client.calls.values()) if (match(call)) call.controller.abort();
  };

  const handlers: ChannelHandlers<SharingChannel, SharingPort> = {
    'sharing/watch': async (message, port) => {
      const tabId = Number.isInteger(message.tabId) ? message.tabId : undefined;
      const watch = tabId === undefined ? {} : { tabId };
      watchers.set(port, watch);
      const value = await state(tabId);
      if (watchers.get(port) === watch) send(port, value);
    },
    'sharing/set-enabled': async (message) => {
      await load();
      if (typeof message.enabled !== 'boolean') return;
      enabled = message.enabled;
      await save();
      if (enabled) await deps.browser.open();
      else {
        stopCallsOn(() => true);
        await deps.browser.close();
      }
      await broadcast();
    },
    'sharing/share': async (message) => {
      await load();
      if (!enabled || !Number.isInteger(message.tabId) || (message.scope !== 'site' && message.scope !== 'tab')) return;
      const tab = (await deps.browser.tabs()).find((t) => t.tabId === message.tabId);
      const site = webOriginOf(tab?.url);
      // Only web pages can be shared: the browser's own pages and the extension's have no site.
      if (!site || !/^https?:/.test(site)) return;
      if (message.scope === 'site') {
        if (!sites.includes(site)) sites = [...sites, site];
        await save();
      } else if (!tabShares.some((t) => t.tabId === message.tabId && t.site === site)) {
        tabShares = [...tabShares, { tabId: message.tabId, site }];
      }
      listMayHaveChanged();
      await broadcast();
    },
    'sharing/stop': async (message) => {
      await load();
      if (typeof message.site === 'string') {
        const site = message.site;
        sites = sites.filter((s) => s !== site);
        tabShares = tabShares.filter((t) => t.site !== site);
        stopCallsOn((call) => call.site === site);
        await save();
      }
      if (Number.isInteger(message.tabId)) {
        const tabId = message.tabId;
        const site = tabShares.find((t) => t.tabId === tabId)?.site;
        tabShares = tabShares.filter((t) => t.tabId !== tabId);
        stopCallsOn((call) => call.tabId === tabId && (site === undefined || !sites.includes(call.site)));
      }
      listMayHaveChanged();
      await broadcast();
    },
  };

  handlers['sharing/pair'] = async (message) => {
    await load();
    const code = typeof message.code === 'string' ? normalizeCode(message.code) : '';
    if (code.length < 12 || code.length > 64) return;
    await deps.storage.set({ [PAIRING_KEY]: code }).catch(() => undefined);
    // A host waiting with a challenge that failed has stopped: start it again with the new code.
    if (enabled) {
      await deps.browser.close();
      await deps.browser.open();
    }
    await broadcast();
  };

  deps.onConnect.addListener((port) => {
    if (port.name !== SHARING_PORT_NAME) return;
    // A content script can open a Port of this name: it must neither turn sharing on nor share its own site.
    if (!isHostSender(port.sender, deps.extension.id, deps.extension.origin)) {
      try {
        port.disconnect?.();
      } catch {
        // Already gone.
      }
      return;
    }
    watchers.set(port, {});
    port.onDisconnect.addListener(() => watchers.delete(port));
    port.onMessage.addListener((message) => void handleMessage(handlers, message, port)?.catch(() => undefined));
  });

  return {
    async start() {
      await load();
      if (!enabled) return;
      // A host that restarted has no clients: start the native host afresh, so every desktop agent says hello again.
      await deps.browser.close();
      await deps.browser.open();
    },
    state,
  };
}

/** The code as the host uses it in the HMAC (bridge/src/pairing.ts normalizePairingCode). */
function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** HMAC-SHA256(code, nonce) in hex, as the host checks it (bridge/src/pairing.ts pairingProof). */
export async function pairingProof(code: string, nonce: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(normalizeCode(code)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(nonce)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

function errorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The text of an output's first text block. */
function toolText(output: ToolOutput): string {
  const first = output.content.find((c) => c.type === 'text');
  return first?.type === 'text' ? first.text : '';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
