/**
 * Firefox has no offscreen document: its background page is the agent host (wire-agent-host.ts), calling the tool
 * router and the native link in the same page directly, and answering the options page's requests itself. It lives
 * here, in the composition root, as it joins the host's parts with the background's.
 */
import type { HostPort } from '../host/agent-host-deps';
import { createLocalAdapterFromSettings } from '../host/create-local-adapter-from-settings';
import type { EnginePort } from '../local/engine-messages';
import type { TabClosedMessage } from '../messaging/host-channel';
import type { AttestedSender } from '../messaging/is-host-sender';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { StorageArea } from '../messaging/storage-area';
import type { RouterClient } from '../messaging/router-client';
import { wireAgentHost } from './wire-agent-host';

/** The slice of Firefox's browser this needs. */
interface BackgroundPageBrowser {
  runtime: {
    id: string;
    getURL(path: string): string;
    onConnect: { addListener(listener: (port: HostPort) => void): void };
    onMessage: {
      addListener(listener: (message: unknown, sender: AttestedSender, sendResponse: (answer: unknown) => void) => boolean): void;
    };
  };
}

interface BackgroundPageHostDeps {
  storage: { local: StorageArea; session: StorageArea };
  toolRouter: RouterClient;
  nativeLink: BridgeBrowser;
  /** Starts the engine Worker: its URL is the entry point's, which the bundler resolves. */
  startWorker(): EnginePort;
  /** `navigator.deviceMemory` (GB) where the browser has it; where it has none, the recommendation assumes 4 GB. */
  deviceMemoryGb?: number;
  fetch: typeof fetch;
}

/** Starts the host in this page; what it gives back tells it a tab closed. */
export function setUpBackgroundPageHost(
  browser: BackgroundPageBrowser,
  deps: BackgroundPageHostDeps,
): { tellHost(message: TabClosedMessage): Promise<unknown> } {
  const host = wireAgentHost({
    storage: deps.storage,
    onConnect: browser.runtime.onConnect,
    extension: { id: browser.runtime.id, origin: browser.runtime.getURL('/') },
    bridge: deps.toolRouter,
    bridgeBrowser: deps.nativeLink,
    fetch: deps.fetch,
    // Single-threaded WASM in the Worker: Firefox's extension pages are not cross-origin isolated.
    createLocalAdapter: (settings) =>
      createLocalAdapterFromSettings({
        settings,
        startWorker: deps.startWorker,
        getURL: (path) => browser.runtime.getURL(path),
        deviceMemoryGb: deps.deviceMemoryGb,
      }),
  });
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // Options requests come from extension pages only (the options page may sit in a tab): the host checks sender.
    const answer = host.handleMessage(message, sender);
    if (!answer) return false;
    void answer.then(sendResponse);
    return true;
  });
  return {
    tellHost: async (message) => {
      await host.host.closeTab(message.tabId, { keepForRestore: message.keepForRestore });
      return true;
    },
  };
}
