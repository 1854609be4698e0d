import { describe, expect, it } from 'vitest';
import type { TabToolEntry, TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { listSharedTools } from './list-shared-tools';
import { createToolNames } from '../agent/site-tool-names';
import { createSharingChoices } from './sharing-choices';

const SHOP = 'https://shop.example';
const BANK = 'https://bank.example';
const entry = (name: string, origin: string, frameId = 0): TabToolEntry => ({
  name,
  originalName: name,
  description: name,
  inputSchema: {},
  origin,
  frameId,
});

async function setup(enabled = true) {
  const choices = createSharingChoices(createMemoryStorageArea({ 'mcpBridge.enabled': enabled, 'mcpBridge.sites': [SHOP] }));
  let tabs = [
    { tabId: 1, url: `${SHOP}/`, title: 'Shop\u202e' },
    { tabId: 2, url: `${BANK}/` },
    { tabId: 3, url: `${SHOP}/cart` },
  ];
  const snapshots = new Map<number, TabToolSnapshot>([
    [
      1,
      {
        tabId: 1,
        page: { url: `${SHOP}/` },
        tools: [entry('search', SHOP), entry('delegate_to_x', SHOP), entry('ad', 'https://ads.example', 4)],
      },
    ],
    [2, { tabId: 2, page: { url: `${BANK}/` }, tools: [entry('balance', BANK)] }],
    // Mid-navigation: the router still knows the bank's page in this tab.
    [3, { tabId: 3, page: { url: `${BANK}/` }, tools: [entry('balance', BANK)] }],
  ]);
  const deps = {
    choices,
    browser: { tabs: async () => tabs },
    tools: { getTools: async (tabId: number) => snapshots.get(tabId) ?? { tabId, tools: [], page: {} } },
    names: createToolNames(),
  };
  return { deps, choices, setTabs: (next: typeof tabs) => (tabs = next) };
}

describe('listSharedTools', () => {
  it('lists the shared site’s tools with the frame’s own origin, never delegate_to_*, another site or another page', async () => {
    const { deps } = await setup();
    const listed = await listSharedTools(deps);
    expect([...listed.keys()]).toEqual(['shop_example__search', 'ads_example__ad']);
    const ad = listed.get('ads_example__ad');
    expect(ad).toMatchObject({ tabId: 1, site: SHOP, tool: 'ad', origin: 'https://ads.example', title: 'Shop' });
    expect(listed.get('shop_example__search')).not.toHaveProperty('origin');
  });

  it('lists nothing while sharing is off', async () => {
    const { deps } = await setup(false);
    expect((await listSharedTools(deps)).size).toBe(0);
  });

  it('lists a tab shared alone while it shows its site, and forgets the share once it does not', async () => {
    const { deps, choices, setTabs } = await setup();
    await choices.load();
    choices.shareTab(2, BANK);
    expect([...(await listSharedTools(deps)).keys()]).toContain('bank_example__balance');
    setTabs([{ tabId: 2, url: 'https://elsewhere.example/' }]);
    await listSharedTools(deps);
    expect(choices.tabShares()).toEqual([]);
  });
});
