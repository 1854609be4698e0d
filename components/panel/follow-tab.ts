/** The slice of browser.tabs and browser.windows the panel needs to know which tab it is about. */
export interface TabsPort {
  get(tabId: number): Promise<{ id?: number; url?: string }>;
  /** The active tab of the panel's own window. */
  activeTab(): Promise<{ id?: number; url?: string; windowId?: number } | undefined>;
  /** tabs.onActivated. */
  onActivated(listener: (info: { tabId: number; windowId: number }) => void): void;
  /** tabs.onUpdated (only the tab's new address matters here). */
  onUpdated(listener: (tabId: number, change: { url?: string }) => void): void;
}

/**
 * Keeps the panel bound to the right tab: `?tab=<id>` pins it to that tab; otherwise it follows its window's
 * active tab as the person switches tabs. `bind` gets the tab id and, when known, its URL, and again with the new
 * URL each time the browser says the bound tab's address changed: the panel then knows which site the person
 * types on even while its agent host is away (docs/security.md, "A conversation belongs to its site").
 */
export async function followTab(search: string, tabs: TabsPort, bind: (tabId: number, url?: string) => void): Promise<void> {
  let bound: number | undefined;
  const bindTab = (tabId: number, url?: string) => {
    bound = tabId;
    bind(tabId, url);
  };
  tabs.onUpdated((tabId, change) => {
    if (tabId === bound && typeof change.url === 'string') bind(tabId, change.url);
  });
  const pinned = Number(new URLSearchParams(search).get('tab'));
  if (Number.isInteger(pinned) && pinned > 0) {
    const tab = await tabs.get(pinned).catch(() => undefined);
    bindTab(pinned, tab?.url);
    return;
  }
  const active = await tabs.activeTab();
  if (active?.id === undefined) return;
  const windowId = active.windowId;
  bindTab(active.id, active.url);
  tabs.onActivated((info) => {
    if (windowId !== undefined && info.windowId !== windowId) return;
    void tabs.get(info.tabId).then(
      (tab) => bindTab(info.tabId, tab.url),
      () => bindTab(info.tabId),
    );
  });
}
