/**
 * The native Port to desktop agents' bridge (create-native-link.ts) over the browser: opened only when the agent
 * host, following the person's choice, asks. Chrome's offscreen host reaches it by message (its state and messages
 * pushed back here); Firefox's host, this background page, calls it directly.
 */
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import { createNativeLink, pushNativeLinkEvents } from './create-native-link';

type TabListener = () => void;
type NativeLinkDeps = Parameters<typeof createNativeLink>[0];

/** Firefox's sidebar (the part used); Chrome has none. */
interface SidebarAction {
  open(): Promise<void>;
  isOpen(details: { windowId: number }): Promise<boolean>;
  toggle(): Promise<void>;
}

/** The slice of the browser this needs. */
interface NativeLinkBrowser {
  runtime: {
    /** A runtime.Port: Chrome's typings lack the `error` that Firefox's Port carries, so it is taken as it comes. */
    connectNative(name: string): object;
    lastError?: { message?: string } | undefined;
    sendMessage(message: unknown): Promise<unknown>;
    getURL(path: string): string;
  };
  tabs: {
    query(filter: Record<string, never>): Promise<{ id?: number; url?: string; title?: string }[]>;
    onCreated: { addListener(listener: TabListener): void };
    onRemoved: { addListener(listener: TabListener): void };
    onUpdated: { addListener(listener: (tabId: number, change: { url?: string; status?: string }) => void): void };
    update(tabId: number, change: { active: boolean }): Promise<{ windowId?: number; index: number } | undefined>;
    create(properties: { url: string; windowId: number; index: number; active: boolean }): Promise<unknown>;
  };
  windows: { update(windowId: number, change: { focused: boolean }): Promise<unknown> };
  notifications: {
    create(id: string, options: { type: 'basic'; title: string; message: string; iconUrl: string }): Promise<unknown>;
    clear(id: string): Promise<unknown>;
    onClicked: { addListener(listener: (id: string) => void): void };
  };
  sidePanel?: { open(options: { tabId: number }): Promise<void> };
  sidebarAction?: SidebarAction;
}

/** Creates the link (closed until the host opens it); on Chrome its events go to the offscreen host. */
export function setUpNativeLink(browser: NativeLinkBrowser, options: { firefox: boolean }): BridgeBrowser {
  const link = createNativeLink({
    connectNative: (name) => browser.runtime.connectNative(name) as ReturnType<NativeLinkDeps['connectNative']>,
    lastError: () => browser.runtime.lastError?.message,
    queryTabs: () => browser.tabs.query({}),
    onTabsChanged: (listener) => {
      browser.tabs.onCreated.addListener(listener);
      browser.tabs.onRemoved.addListener(listener);
      browser.tabs.onUpdated.addListener((_id, change) => void ((change.url !== undefined || change.status === 'complete') && listener()));
    },
    notifications: {
      create: (id, notification) => browser.notifications.create(id, notification),
      clear: (id) => browser.notifications.clear(id),
      onClicked: (listener) => browser.notifications.onClicked.addListener(listener),
    },
    // A click on a waiting question's notification (open-waiting-question.ts): Chrome counts it as a user gesture
    // and opens the panel; Firefox does not, so there the panel's page opens unless the sidebar is open.
    questions: {
      openPanel: async (tabId) => {
        await (options.firefox ? browser.sidebarAction?.open() : browser.sidePanel?.open({ tabId }));
      },
      showTab: async (tabId) => {
        const tab = await browser.tabs.update(tabId, { active: true });
        if (tab?.windowId === undefined) return undefined;
        await browser.windows.update(tab.windowId, { focused: true });
        return { windowId: tab.windowId, index: tab.index };
      },
      // Chrome cannot tell: its side panel's context has no window (windowId -1 on Chromium 156). Its click opens the
      // panel anyway; where it does not, the panel's page opens.
      panelOpenIn: async (windowId) => (options.firefox ? ((await browser.sidebarAction?.isOpen({ windowId })) ?? false) : false),
      openPanelPage: async (tabId, beside) => {
        await browser.tabs.create({
          url: browser.runtime.getURL(`/sidepanel.html?tab=${tabId}`),
          windowId: beside.windowId,
          index: beside.index + 1,
          active: true,
        });
      },
    },
    iconUrl: browser.runtime.getURL('/icon/128.png'),
  });
  if (!options.firefox) pushNativeLinkEvents(link, (message) => void browser.runtime.sendMessage(message).catch(() => {}));
  return link;
}
