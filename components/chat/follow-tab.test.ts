import { describe, expect, it } from 'vitest';
import { followTab, type TabsPort } from './follow-tab';

/** Tabs in memory, with the two events the panel listens to. */
function memoryTabs(tabs: { id: number; url: string; windowId: number; active?: boolean }[]) {
  const activated: ((info: { tabId: number; windowId: number }) => void)[] = [];
  const port: TabsPort & { activate(id: number): void } = {
    get: async (id) => {
      const tab = tabs.find((t) => t.id === id);
      if (!tab) throw new Error(`No tab with id: ${id}.`);
      return tab;
    },
    activeTab: async () => tabs.find((t) => t.active && t.windowId === 1),
    onActivated: (listener) => void activated.push(listener),
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
});
