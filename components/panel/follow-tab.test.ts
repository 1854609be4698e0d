import { describe, expect, it } from 'vitest';
import { followTab, type TabsPort } from './follow-tab';

/** Tabs in memory, with the events the panel listens to. */
function memoryTabs(tabs: { id: number; url: string; windowId: number; active?: boolean }[]) {
  const activated: ((info: { tabId: number; windowId: number }) => void)[] = [];
  const updated: ((tabId: number, change: { url?: string; status?: string }) => void)[] = [];
  const port: TabsPort & { activate(id: number): void; update(id: number, change: { url?: string; status?: string }): void } = {
    get: async (id) => {
      const tab = tabs.find((t) => t.id === id);
      if (!tab) throw new Error(`No tab with id: ${id}.`);
      return tab;
    },
    activeTab: async () => tabs.find((t) => t.active && t.windowId === 1),
    onActivated: (listener) => void activated.push(listener),
    onUpdated: (listener) => void updated.push(listener),
    update: (id, change) => {
      for (const l of updated) l(id, change);
    },
    activate: (id) => {
      const tab = tabs.find((t) => t.id === id)!;
      for (const l of activated) l({ tabId: id, windowId: tab.windowId });
    },
  };
  return port;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('followTab', () => {
  it('?tab=<id> pins the panel to that tab, with its URL, and ignores tab switches', async () => {
    const tabs = memoryTabs([
      { id: 4, url: 'https://a.test/', windowId: 1 },
      { id: 5, url: 'https://b.test/', windowId: 1, active: true },
    ]);
    const bound: unknown[] = [];
    await followTab('?tab=4', tabs, (...args) => bound.push(args));
    tabs.activate(5);
    await flush();
    expect(bound).toEqual([[4, 'https://a.test/']]);
  });

  it('a pinned tab that is gone still binds, without a URL', async () => {
    const bound: unknown[] = [];
    await followTab('?tab=9', memoryTabs([]), (...args) => bound.push(args));
    expect(bound).toEqual([[9, undefined]]);
  });

  it('without ?tab follows the active tab of its own window only', async () => {
    const tabs = memoryTabs([
      { id: 1, url: 'https://a.test/', windowId: 1, active: true },
      { id: 2, url: 'https://b.test/', windowId: 1 },
      { id: 3, url: 'https://c.test/', windowId: 2 },
    ]);
    const bound: unknown[] = [];
    await followTab('', tabs, (...args) => bound.push(args));
    tabs.activate(2);
    tabs.activate(3);
    await flush();
    expect(bound).toEqual([
      [1, 'https://a.test/'],
      [2, 'https://b.test/'],
    ]);
  });

  it('binds the bound tab again with its new address when the browser says it changed, and no other tab', async () => {
    const tabs = memoryTabs([
      { id: 4, url: 'https://bank.test/', windowId: 1 },
      { id: 5, url: 'https://b.test/', windowId: 1, active: true },
    ]);
    const bound: unknown[] = [];
    await followTab('?tab=4', tabs, (...args) => bound.push(args));
    tabs.update(4, { status: 'loading' });
    tabs.update(5, { url: 'https://elsewhere.test/' });
    tabs.update(4, { url: 'https://partner.test/offers' });
    expect(bound).toEqual([
      [4, 'https://bank.test/'],
      [4, 'https://partner.test/offers'],
    ]);

    // Following the active tab: the new address of whichever tab is bound now.
    const following = memoryTabs([
      { id: 1, url: 'https://a.test/', windowId: 1, active: true },
      { id: 2, url: 'https://b.test/', windowId: 1 },
    ]);
    const seen: unknown[] = [];
    await followTab('', following, (...args) => seen.push(args));
    following.update(2, { url: 'https://b.test/next' });
    following.activate(2);
    await flush();
    following.update(1, { url: 'https://a.test/next' });
    following.update(2, { url: 'https://c.test/' });
    expect(seen).toEqual([
      [1, 'https://a.test/'],
      [2, 'https://b.test/'],
      [2, 'https://c.test/'],
    ]);
  });
});
