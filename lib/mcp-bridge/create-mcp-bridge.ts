/**
 * The extension's end of the bridge to desktop agents (issue 24; docs/security.md § 7). It runs in the agent host,
 * beside the tabs' sessions, and is the only place that decides what a desktop agent may reach:
 *
 * - Nothing is shared until the person turns sharing on (options page) and shares a site or a tab (side panel).
 *   Only the extension's own pages can ask for either (sharing-choices.ts, sharing-intents.ts; the Port is checked
 *   in create-sharing-views.ts).
 * - tools/list: the tools of the tabs that show a shared site (or are shared themselves), named `<origin>__<tool>`
 *   after the frame that owns each (list-shared-tools.ts, lib/agent/site-tool-names.ts) and described as on that origin, inside
 *   which site and tab, with schemas cleaned as for the extension's own model (to-bridge-tool.ts). When they change,
 *   every client hears `tools/list-changed` (create-list-change-notifier.ts).
 * - tools/call: only a name from that list, and only while its tab still shows its site and the site is still
 *   shared, and only the tool instance listed, through the tab's session; the result comes back spotlighted in the
 *   client's own delimiter, and only while the tab still shows the shared site (call-shared-tool.ts).
 * - Each client holds the origins whose tools' results it got (a frame tool's result counts as its frame's origin,
 *   not the tab's site). A call to a tool of any other origin is asked about, with the arguments shown, whatever the
 *   policy says; so is a repeat of a call whose outcome went unknown (create-client-registry.ts: its guard).
 * - What a client learns from a refusal is only that no such tool is shared with it: one text for a name that never
 *   existed, a tab that closed or left its site, a site no longer shared and a tool that changed (client-refusals.ts).
 *   No reply, error or progress message names a site, tab or tool that is not shared.
 *
 * Every message of the native host goes through one switch (handle-native-message.ts); a client's requests ride its
 * request line (create-native-lines.ts: ids, cancels as aborted signals, a running call ended when its client or the
 * native Port goes), answered by native-client-handlers.ts; Firefox's host is answered with the pairing proof
 * (pairing-code.ts). This file only wires those parts together.
 */
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { RouterClient } from '../messaging/router-client';
import type { ExtensionIdentity } from '../messaging/accept-extension-port';
import type { NativeLinkState, NativeOutbound, SharingState } from '../messaging/mcp-bridge-messages';
import type { StorageArea } from '../messaging/storage-area';
import { type ClientSession, callSharedTool } from './call-shared-tool';
import { type ClientGuard, createClientRegistry } from './create-client-registry';
import { createListChangeNotifier } from './create-list-change-notifier';
import { createSharingViews, type SharingPort } from './create-sharing-views';
import { createNativeLines } from './create-native-lines';
import { handleNativeMessage } from './handle-native-message';
import { nativeClientHandlers } from './native-client-handlers';
import { listSharedTools } from './list-shared-tools';
import { createToolNames } from '../agent/site-tool-names';
import { answerChallenge } from './pairing-code';
import { readSharingState } from './read-sharing-state';
import { createSharingChoices } from './sharing-choices';
import { createSharingIntents } from './sharing-intents';
import { toBridgeTool } from './to-bridge-tool';

interface McpBridgeDeps {
  browser: BridgeBrowser;
  tools: Pick<RouterClient, 'getTools' | 'subscribe'>;
  /** The tab's session (created on first use), where the call runs as an agent's would. */
  session(tabId: number): Promise<ClientSession>;
  /** A new client's guard: the host's run guard, told no site (lib/host/create-run-guard.ts). */
  createGuard(): ClientGuard;
  /** The privileged storage area (settings live there too). */
  storage: Pick<StorageArea, 'get' | 'set'>;
  onConnect: { addListener(listener: (port: SharingPort) => void): void };
  extension: ExtensionIdentity;
  generateId?: () => string;
  /** How long list changes are gathered before clients hear of them. Default 100 ms. */
  settleMs?: number;
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
  const { browser } = deps;
  const generateId = deps.generateId ?? (() => crypto.randomUUID());
  const names = createToolNames();
  const choices = createSharingChoices(deps.storage);
  const clients = createClientRegistry({ createGuard: deps.createGuard });
  let link: NativeLinkState = { state: 'closed' };

  const post = (message: NativeOutbound) => void browser.post(message).catch(() => undefined);

  const listing = () => listSharedTools({ choices, browser, tools: deps.tools, names });
  const listTools = async () => [...(await listing())].map(([name, tool]) => toBridgeTool(name, tool));
  const notifier = createListChangeNotifier({
    list: listTools,
    hasClients: () => clients.size() > 0,
    post,
    settleMs: deps.settleMs ?? 100,
  });

  const state = (tabId?: number) =>
    readSharingState({ choices, browser, tools: deps.tools, clients, link: () => link, storage: deps.storage }, tabId);
  const views = createSharingViews(state);
  const dropClient = (clientId: string) => {
    if (clients.drop(clientId)) void views.broadcast();
  };

  const lines = createNativeLines({
    post,
    handlers: (clientId) =>
      nativeClientHandlers(clientId, {
        clients,
        listTools,
        listed: notifier.listed,
        callTool: (client, name, input, context) =>
          callSharedTool(
            { listing, session: deps.session, browser, choices, watched: views.watched, generateId },
            client,
            name,
            input,
            context,
          ),
        clientsChanged: () => void views.broadcast(),
      }),
  });
  const onNative = (raw: unknown) =>
    handleNativeMessage(raw, {
      clients,
      lines,
      answerChallenge: (nonce) => void answerChallenge(deps.storage, nonce).then((proof) => post({ type: 'host/proof', proof })),
      clientsChanged: () => void views.broadcast(),
    });

  browser.subscribe({
    message: onNative,
    state: (next) => {
      link = next;
      if (next.state !== 'open') {
        // The lines first: a call still running ends with the line's error as its reason.
        lines.closeAll(next.state === 'failed' ? next.error : undefined);
        for (const clientId of clients.ids()) dropClient(clientId);
        notifier.forget();
      }
      void views.broadcast();
    },
    tabsChanged: () => {
      notifier.mayHaveChanged();
      void views.broadcast();
    },
  });
  deps.tools.subscribe(() => notifier.mayHaveChanged());

  const intents = createSharingIntents({
    choices,
    browser,
    storage: deps.storage,
    clients,
    listMayHaveChanged: notifier.mayHaveChanged,
    broadcast: views.broadcast,
  });
  deps.onConnect.addListener((port) => views.accept(port, deps.extension, intents));

  return {
    async start() {
      await choices.load();
      if (!choices.enabled()) return;
      // A host that restarted has no clients: start the native host afresh, so every desktop agent says hello again.
      await browser.close();
      await browser.open();
    },
    state,
  };
}
