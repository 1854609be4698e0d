import { createToolRouter } from '@/lib/background/create-tool-router';
import { ensureOffscreenDocument } from '@/lib/background/ensure-offscreen-document';
import { isHostSender } from '@/lib/background/is-host-sender';
import { createAgentHostRuntime } from '@/lib/host/create-agent-host-runtime';
import { startLocalAdapter } from '@/lib/host/start-local-adapter';
import { agentStorageChanged, serveAgentStorage } from '@/lib/messaging/agent-storage-proxy';
import { isFirefox } from '@/lib/platform';
import type { EnginePort } from '@/lib/local/engine-messages';

export default defineBackground(() => {
  // Page tools: content scripts report, the agent host asks (Chrome: offscreen messages; Firefox: this page).
  const toolRouter = createToolRouter({
    store: {
      get: (keys) => browser.storage.session.get([...keys]),
      set: (items) => browser.storage.session.set(items),
      remove: (keys) => browser.storage.session.remove([...keys]),
    },
    sendToFrame: (tabId, frameId, message) => browser.tabs.sendMessage(tabId, message, { frameId }),
    setBadge: (tabId, text) => void browser.action.setBadgeText({ tabId, text }).catch(() => {}),
    notifyHost: (message) => void browser.runtime.sendMessage(message).catch(() => {}),
  });
  const storageAreas = {
    local: { ...areaPort(browser.storage.local), onChanged: browser.storage.local.onChanged as any },
    session: { ...areaPort(browser.storage.session), onChanged: browser.storage.session.onChanged as any },
  };
  // The agent host in this context (Firefox) and the E2E tests reach the same router.
  (globalThis as any).toolBridge = toolRouter;
  const extensionOrigin = browser.runtime.getURL('/');
  browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (isHostSender(sender, browser.runtime.id, extensionOrigin)) {
      // Chrome's offscreen agent host has no chrome.storage: it reads and writes through here.
      const answer = toolRouter.handleHostMessage(message) ?? serveAgentStorage(message, storageAreas);
      if (!answer) return false;
      void answer.then(sendResponse);
      return true;
    }
    if (sender.tab?.id !== undefined && sender.frameId !== undefined) {
      toolRouter.handleFrameMessage(message, { tabId: sender.tab.id, frameId: sender.frameId });
    }
    return false;
  });
  browser.tabs.onRemoved.addListener((tabId) => void toolRouter.forgetTab(tabId));

  // A build-time constant, not isFirefox(): it lets the bundler drop the host (AI SDK and all) from Chrome's
  // service worker, which then parses 10 KB on every wake instead of 900 KB.
  if (import.meta.env.FIREFOX) {
    // Firefox has no offscreen document: this background page is the agent host.
    const host = createAgentHostRuntime({
      storage: storageAreas,
      onConnect: browser.runtime.onConnect as any,
      bridge: toolRouter,
      fetch: globalThis.fetch.bind(globalThis),
      // The engine Worker starts from this page: single-threaded WASM, as Firefox's extension pages are not
      // cross-origin isolated. (Vite still emits the worker file into Chrome's build, 561 KB, unused there.)
      createLocalAdapter: (settings) =>
        startLocalAdapter({
          settings,
          startWorker: () =>
            new Worker(new URL('./offscreen/engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort,
          getURL: (path) => browser.runtime.getURL(path as any),
          // Chrome-only today; where the browser has none, the recommendation assumes 4 GB.
          deviceMemoryGb: (navigator as { deviceMemory?: number }).deviceMemory,
        }),
    });
    browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
      // Options requests come from extension pages only (the options page may sit in a tab; content scripts never ask).
      if (sender.id !== browser.runtime.id || !(sender.url ?? '').startsWith(extensionOrigin)) return false;
      const answer = host.handleMessage(message);
      if (!answer) return false;
      void answer.then(sendResponse);
      return true;
    });
  }

  if (isFirefox()) {
    // Firefox: the toolbar button toggles the sidebar.
    browser.action.onClicked.addListener(() => (browser as any).sidebarAction.toggle());
  } else {
    void browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
    // The offscreen agent host hears storage changes (settings saved on the options page) through here.
    browser.storage.onChanged.addListener((changes, area) => {
      const message = area === 'local' ? agentStorageChanged(area, changes as any) : undefined;
      if (message) void browser.runtime.sendMessage(message).catch(() => {});
    });
    const offscreenApi = {
      hasDocument: async () => (await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as any] })).length > 0,
      createDocument: (params: { url: string; reasons: string[]; justification: string }) =>
        browser.offscreen.createDocument(params as any),
    };
    const ensureHost = () => ensureOffscreenDocument(offscreenApi, browser.runtime.getURL('/offscreen.html'));
    browser.runtime.onStartup.addListener(() => void ensureHost());
    // A side panel that lost its host pings before reconnecting: bring the host back if it is gone.
    browser.runtime.onMessage.addListener((message: any) => {
      if (message?.type === 'host-ping') void ensureHost();
      return false;
    });
    browser.runtime.onInstalled.addListener(() => void ensureHost());
    void ensureHost();
  }
});

/** A browser storage area as the StorageArea port's get/set/remove. */
function areaPort(area: typeof browser.storage.local) {
  return {
    get: (keys: readonly string[]) => area.get([...keys]) as Promise<Record<string, unknown>>,
    set: (items: Record<string, unknown>) => area.set(items),
    remove: (keys: readonly string[]) => area.remove([...keys]),
  };
}
