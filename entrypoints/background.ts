import { attestFrameSender } from '@/lib/background/attest-frame-sender';
import { createToolRouter } from '@/lib/background/create-tool-router';
import { createBridgeLoader, createFrameFinder } from '@/lib/background/load-bridge';
import { forgetClosedTab } from '@/lib/background/forget-closed-tab';
import { isCrashedTab } from '@/lib/background/is-crashed-tab';
import { createDocumentPorts } from '@/lib/background/create-document-ports';
import { DOCUMENT_PORT_NAME, type RouterChannel } from '@/lib/messaging/bridge-messages';
import { ensureOffscreenDocument } from '@/lib/background/ensure-offscreen-document';
import { isHostSender } from '@/lib/messaging/is-host-sender';
import { createStubSync, NATIVE_WEBMCP_KEY } from '@/lib/background/create-stub-sync';
import { createNativeLink, pushNativeLinkEvents, serveNativeLink } from '@/lib/background/create-native-link';
import { wireAgentHost } from '@/lib/agent-host-root/wire-agent-host';
import { createLocalAdapterFromSettings } from '@/lib/host/create-local-adapter-from-settings';
import { agentStorageChanged, serveAgentStorage } from '@/lib/messaging/agent-storage-proxy';
import { isMessage } from '@/lib/messaging/channel';
import type { HostChannel, TabClosedMessage } from '@/lib/messaging/host-channel';
import { browserSessionId, createConversationStore } from '@/lib/storage/conversations';
import { createIndexedDbStorageArea, migrateFromStorageLocal } from '@/lib/storage/indexed-db-storage-area';
import { restrictStorageAccess } from '@/lib/storage/restrict-storage-access';
import { storageAreaAfter } from '@/lib/storage/storage-area-after';
import type { StorageArea } from '@/lib/messaging/storage-area';
import { isFirefox } from '@/lib/platform';
import type { EnginePort } from '@/lib/local/engine-messages';

export default defineBackground(() => {
  // First, before anything is read or written: content scripts get no extension storage (Chromium; Firefox keeps
  // its privileged data out of storage.local instead). See lib/storage/restrict-storage-access.ts.
  void restrictStorageAccess({
    local: browser.storage.local as never,
    session: browser.storage.session as never,
    sync: browser.storage.sync as never,
  });
  // Page tools: content scripts report, the agent host asks (Chrome: offscreen messages; Firefox: this page).
  const toolRouter = createToolRouter({
    store: {
      get: (keys) => browser.storage.session.get([...keys]),
      set: (items) => browser.storage.session.set(items),
      remove: (keys) => browser.storage.session.remove([...keys]),
    },
    // With a documentId (Chrome) the message reaches that document or none, never the one that replaced it.
    sendToFrame: (tabId, frameId, message, documentId) =>
      browser.tabs.sendMessage(tabId, message, (documentId ? { documentId } : { frameId }) as { frameId?: number }),
    setBadge: (tabId, text) => void browser.action.setBadgeText({ tabId, text }).catch(() => {}),
    notifyHost: (message) => void browser.runtime.sendMessage(message).catch(() => {}),
    // The two halves of the bridge, and the key that proves the page channel's handshake to both.
    loadBridge: createBridgeLoader({
      executeScript: (injection) => browser.scripting.executeScript(injection as never),
      firefox: import.meta.env.FIREFOX,
      randomKey: () => crypto.randomUUID(),
    }),
    findFrames: createFrameFinder((injection) => browser.scripting.executeScript(injection as never)),
    tabCrashed: (tabId) => browser.tabs.get(tabId).then(isCrashedTab, () => false),
  });
  // The background holds a Port to each top document whose bridge runs: its closing is the only news of a crash.
  const documentPorts = createDocumentPorts({
    connect: (tabId, documentId) => {
      try {
        return browser.tabs.connect(tabId, { name: DOCUMENT_PORT_NAME, ...(documentId ? { documentId } : { frameId: 0 }) } as never);
      } catch {
        return undefined;
      }
    },
    left: (tabId, documentId) => void toolRouter.topDocumentLeft(tabId, documentId),
  });
  // Chrome: the page-world stub goes in only where the browser lacks native WebMCP, the native watcher where it has
  // it (lib/background/create-stub-sync.ts). Tests wait for this before they open pages: `pageStubReady` once the
  // stub stored from the last report is in, `stubsSettled` once this worker's agent host has reported (on a first
  // launch with native WebMCP, that swaps the stubs).
  const syncStubs = import.meta.env.FIREFOX ? undefined : createStubSync(browser.scripting as never);
  let stubsReported = () => {};
  const firstReport = new Promise<void>((resolve) => (stubsReported = resolve));
  const storedReport = syncStubs ? browser.storage.local.get(NATIVE_WEBMCP_KEY).catch(() => ({}) as Record<string, unknown>) : undefined;
  const pageStubReady = storedReport
    ? storedReport.then((stored) => syncStubs!(stored[NATIVE_WEBMCP_KEY] === true)).catch(() => undefined)
    : Promise.resolve();
  // The tests' hooks on the worker's global (tests/e2e/fixtures.ts, reset-browser.ts): compiled out of the store
  // build (`--mode store`, scripts/release.ts), whose packages tests/release/check-release.ts searches for them.
  if (import.meta.env.MODE !== 'store') {
    (globalThis as any).pageStubReady = pageStubReady;
    // Nothing stored: a first launch, whose host has yet to report.
    (globalThis as any).stubsSettled = storedReport
      ? storedReport.then((stored) => (NATIVE_WEBMCP_KEY in stored ? pageStubReady : firstReport))
      : Promise.resolve();
    // The agent host in this context (Firefox) gets the router below; the E2E tests reach it here.
    (globalThis as any).toolBridge = toolRouter;
  }
  const storageAreas = {
    local: privilegedArea(),
    session: { ...areaPort(browser.storage.session), onChanged: browser.storage.session.onChanged as any },
  };
  const extensionOrigin = browser.runtime.getURL('/');
  // The native Port to desktop agents' bridge (lib/background/create-native-link.ts): opened only when the agent host,
  // following the person's choice, asks. Chrome's offscreen host reaches it by message, Firefox's calls it directly.
  const nativeLink = createNativeLink({
    connectNative: (name) => browser.runtime.connectNative(name) as never,
    lastError: () => browser.runtime.lastError?.message,
    queryTabs: () => browser.tabs.query({}),
    onTabsChanged: (listener) => {
      browser.tabs.onCreated.addListener(listener);
      browser.tabs.onRemoved.addListener(listener);
      browser.tabs.onUpdated.addListener((_id, change) => void ((change.url !== undefined || change.status === 'complete') && listener()));
    },
    notifications: {
      create: (id, options) => browser.notifications.create(id, options),
      clear: (id) => browser.notifications.clear(id),
      onClicked: (listener) => browser.notifications.onClicked.addListener(listener),
    },
    // A click on a waiting question's notification (lib/background/open-waiting-question.ts): Chrome counts it as a
    // user gesture and opens the panel; Firefox does not, so there the panel's page opens unless the sidebar is open.
    questions: {
      openPanel: (tabId) => (import.meta.env.FIREFOX ? (browser as any).sidebarAction.open() : browser.sidePanel.open({ tabId })),
      showTab: async (tabId) => {
        const tab = await browser.tabs.update(tabId, { active: true });
        if (tab?.windowId === undefined) return undefined;
        await browser.windows.update(tab.windowId, { focused: true });
        return { windowId: tab.windowId, index: tab.index };
      },
      // Chrome cannot tell: its side panel's context has no window (windowId -1 on Chromium 156). Its click opens the
      // panel anyway; where it does not, the panel's page opens.
      panelOpenIn: async (windowId) => (import.meta.env.FIREFOX ? (browser as any).sidebarAction.isOpen({ windowId }) : false),
      openPanelPage: async (tabId, beside) => {
        await browser.tabs.create({
          url: browser.runtime.getURL(`/sidepanel.html?tab=${tabId}` as any),
          windowId: beside.windowId,
          index: beside.index + 1,
          active: true,
        });
      },
    },
    iconUrl: browser.runtime.getURL('/icon/128.png'),
  });
  if (!import.meta.env.FIREFOX) pushNativeLinkEvents(nativeLink, (message) => void browser.runtime.sendMessage(message).catch(() => {}));
  browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (isHostSender(sender, browser.runtime.id, extensionOrigin)) {
      // The agent host (a document) can tell whether the browser has native WebMCP; the service worker cannot.
      if (isMessage<RouterChannel, 'router/native-webmcp'>(message, 'router/native-webmcp') && typeof message.native === 'boolean') {
        if (!syncStubs) return false;
        void browser.storage.local
          .set({ [NATIVE_WEBMCP_KEY]: message.native })
          .then(() => syncStubs(message.native))
          .catch(() => undefined)
          .then(stubsReported);
        return false;
      }
      // Chrome's offscreen agent host has no chrome.storage (nor connectNative): it reads and writes through here.
      const answer =
        toolRouter.handleHostMessage(message) ??
        serveAgentStorage(message, storageAreas) ??
        (import.meta.env.FIREFOX ? undefined : serveNativeLink(nativeLink, message));
      if (!answer) return false;
      void answer.then(sendResponse);
      return true;
    }
    // A frame's identity (tab, frame, document, origin, URL) is what the browser attests, never what it says.
    const frame = attestFrameSender(sender as Parameters<typeof attestFrameSender>[0]);
    if (!frame) return false;
    // Only the bridge says these (the stub that every page gets does not): such a document gets its Port.
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'frame/ready' || type === 'frame/tools') documentPorts.seen(frame);
    const answer = toolRouter.answerFrameQuestion(message, frame);
    if (answer) {
      void answer.then(sendResponse, () => sendResponse(false));
      return true;
    }
    toolRouter.handleFrameMessage(message, frame);
    return false;
  });
  // Conversations end with their tabs (lib/background/forget-closed-tab.ts): Chrome's offscreen host is told if it
  // runs, else this deletes the record itself; Firefox's host is this page and is called directly (set below).
  let tellHost = (message: TabClosedMessage): Promise<unknown> => browser.runtime.sendMessage(message);
  const conversations = () =>
    browserSessionId(storageAreas.session).then((session) => createConversationStore(storageAreas.local, { session }));
  // A watched tab's new page gets the bridge once loaded (lib/background/create-tool-router.ts, tabLoaded).
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === 'loading' && change.url !== undefined) void toolRouter.tabNavigating(tabId);
    if (change.status === 'complete') void toolRouter.tabLoaded(tabId);
  });
  browser.tabs.onRemoved.addListener((tabId, removeInfo) => {
    void toolRouter.forgetTab(tabId);
    void forgetClosedTab(tabId, removeInfo, { tellHost, store: conversations });
  });

  // A build-time constant, not isFirefox(): it lets the bundler drop the host (AI SDK and all) from Chrome's
  // service worker, which then parses 10 KB on every wake instead of 900 KB.
  if (import.meta.env.FIREFOX) {
    // Firefox has no offscreen document: this background page is the agent host.
    const host = wireAgentHost({
      storage: storageAreas,
      onConnect: browser.runtime.onConnect as any,
      extension: { id: browser.runtime.id, origin: extensionOrigin },
      bridge: toolRouter,
      bridgeBrowser: nativeLink,
      fetch: globalThis.fetch.bind(globalThis),
      // The engine Worker starts from this page: single-threaded WASM, as Firefox's extension pages are not
      // cross-origin isolated. (Vite still emits the worker file into Chrome's build, 561 KB, unused there.)
      createLocalAdapter: (settings) =>
        createLocalAdapterFromSettings({
          settings,
          startWorker: () =>
            new Worker(new URL('./offscreen/engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort,
          getURL: (path) => browser.runtime.getURL(path as any),
          // Chrome-only today; where the browser has none, the recommendation assumes 4 GB.
          deviceMemoryGb: (navigator as { deviceMemory?: number }).deviceMemory,
        }),
    });
    tellHost = async (message) => {
      await host.host.closeTab(message.tabId, { keepForRestore: message.keepForRestore });
      return true;
    };
    browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
      // Options requests come from extension pages only (the options page may sit in a tab): the host checks sender.
      const answer = host.handleMessage(message, sender);
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
    let hostStart: Promise<unknown> = Promise.resolve();
    const ensureHost = () =>
      (hostStart = ensureOffscreenDocument(offscreenApi, browser.runtime.getURL('/offscreen.html')).catch(() => undefined));
    // For the tests' reset (tests/e2e/reset-browser.ts): settles once the last start of the agent host has.
    if (import.meta.env.MODE !== 'store') (globalThis as any).hostStarted = () => hostStart;
    browser.runtime.onStartup.addListener(() => void ensureHost());
    // A side panel that lost its host pings before reconnecting: bring the host back if it is gone.
    browser.runtime.onMessage.addListener((message: unknown) => {
      if (isMessage<HostChannel, 'host/ping'>(message, 'host/ping')) void ensureHost();
      return false;
    });
    browser.runtime.onInstalled.addListener(() => void ensureHost());
    void ensureHost();
  }
});

/**
 * Where the key, conversations, grants, site profiles and policy live. Chrome: storage.local, closed to content
 * scripts by restrictStorageAccess. Firefox: content scripts can read and write storage.local and no setting stops
 * them, so the extension origin's IndexedDB instead (content scripts only ever get the page's), after moving
 * anything an earlier version left in storage.local, once.
 */
function privilegedArea(): StorageArea {
  if (!import.meta.env.FIREFOX) return { ...areaPort(browser.storage.local), onChanged: browser.storage.local.onChanged as any };
  const area = createIndexedDbStorageArea({ indexedDB, openChannel: (name) => new BroadcastChannel(name) });
  const migrated = migrateFromStorageLocal(
    { getAll: () => browser.storage.local.get(null), remove: (keys) => browser.storage.local.remove(keys) },
    area,
  ).catch(() => []);
  return storageAreaAfter(area, migrated);
}

/** A browser storage area as the StorageArea port's get/set/remove. */
function areaPort(area: typeof browser.storage.local) {
  return {
    get: (keys: readonly string[]) => area.get([...keys]) as Promise<Record<string, unknown>>,
    set: (items: Record<string, unknown>) => area.set(items),
    remove: (keys: readonly string[]) => area.remove([...keys]),
  };
}
