import { describe, expect, it } from 'vitest';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import { describeOpenTabs } from './describe-open-tabs';

const snapshots: Record<number, TabToolSnapshot> = {
  2: {
    tabId: 2,
    page: { url: 'https://recipes.test/pancakes', title: `  Pancakes ${'x'.repeat(200)}` },
    tools: [
      {
        name: 'get_ingredients',
        originalName: 'get_ingredients',
        description: '',
        inputSchema: {},
        origin: 'https://recipes.test',
        frameId: 0,
      },
    ],
  },
  3: { tabId: 3, page: { url: 'chrome://newtab/', title: 'New Tab' }, tools: [] },
  4: { tabId: 4, page: {}, tools: [] },
};
const bridge = {
  getTools: async (tabId: number) => {
    const s = snapshots[tabId];
    if (!s) throw new Error('No tab with id');
    return s;
  },
};

describe('describeOpenTabs', () => {
  it('names each tab once by the router’s site, bounded title and tool count; a tab with no known site has none, and no tools to add', async () => {
    const tabs = await describeOpenTabs(bridge, [2, 3, 2, 4, 9]);
    expect(tabs.map((t) => t.tabId)).toEqual([2, 3, 4, 9]);
    expect(tabs[0]).toMatchObject({ site: 'https://recipes.test', toolCount: 1 });
    expect(tabs[0]!.title).toMatch(/^Pancakes x+$/);
    expect(tabs[0]!.title!.length).toBe(120);
    // A browser page, a page loading, a tab that closed: no site, so not addable.
    expect(tabs.slice(1)).toEqual([
      { tabId: 3, title: 'New Tab', toolCount: 0 },
      { tabId: 4, toolCount: 0 },
      { tabId: 9, toolCount: 0 },
    ]);
  });
});
