import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSharingChoices } from './sharing-choices';

const SHOP = 'https://shop.example';

describe('createSharingChoices', () => {
  it('reads the kept switch and only sites that are origins, once', async () => {
    const storage = createMemoryStorageArea({ 'mcpBridge.enabled': true, 'mcpBridge.sites': [SHOP, `${SHOP}/path`, 'nope', 3] });
    const choices = createSharingChoices(storage);
    expect(choices.enabled()).toBe(false);
    await choices.load();
    expect(choices.enabled()).toBe(true);
    expect(choices.sites()).toEqual([SHOP]);
    await storage.set({ 'mcpBridge.enabled': false });
    await choices.load();
    expect(choices.enabled()).toBe(true);
  });

  it('keeps the switch and the sites, never the tabs shared alone', async () => {
    const storage = createMemoryStorageArea();
    const choices = createSharingChoices(storage);
    await choices.load();
    choices.setEnabled(true);
    choices.shareSite(SHOP);
    choices.shareSite(SHOP);
    choices.shareTab(4, 'https://bank.example');
    await choices.save();
    expect(await storage.get(['mcpBridge.enabled', 'mcpBridge.sites'])).toEqual({ 'mcpBridge.enabled': true, 'mcpBridge.sites': [SHOP] });
  });

  it('shares a tab alone only while it shows its site, and stops a site with its tab shares', async () => {
    const choices = createSharingChoices(createMemoryStorageArea());
    choices.shareTab(1, SHOP);
    choices.shareTab(1, SHOP);
    choices.shareTab(2, SHOP);
    expect(choices.tabShares()).toEqual([
      { tabId: 1, site: SHOP },
      { tabId: 2, site: SHOP },
    ]);
    expect(choices.isShared(1, SHOP)).toBe(true);
    expect(choices.isShared(3, SHOP)).toBe(false);
    choices.keepShowingTabs(
      new Map([
        [1, { tabId: 1, url: `${SHOP}/cart` }],
        [2, { tabId: 2, url: 'https://elsewhere.example/' }],
      ]),
    );
    expect(choices.tabShares()).toEqual([{ tabId: 1, site: SHOP }]);
    expect(choices.stopTab(1)).toBe(SHOP);
    expect(choices.stopTab(1)).toBeUndefined();
    choices.shareSite(SHOP);
    choices.shareTab(5, SHOP);
    choices.stopSite(SHOP);
    expect(choices.sites()).toEqual([]);
    expect(choices.tabShares()).toEqual([]);
  });
});
