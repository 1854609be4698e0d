import { describe, expect, it } from 'vitest';
import type { NativeLinkState } from '../messaging/mcp-bridge-messages';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { readSharingState } from './read-sharing-state';
import { createSharingChoices } from './sharing-choices';

const SHOP = 'https://shop.example';
const BANK = 'https://bank.example';

async function setup(enabled = true, stored: Record<string, unknown> = {}) {
  const storage = createMemoryStorageArea({ 'mcpBridge.enabled': enabled, 'mcpBridge.sites': [SHOP], ...stored });
  const choices = createSharingChoices(storage);
  await choices.load();
  const link: NativeLinkState = { state: 'open' };
  const deps = {
    choices,
    browser: { tabs: async () => [{ tabId: 1, url: `${SHOP}/` }, { tabId: 2, url: `${BANK}/`, title: 'Bank\u202e' }, { tabId: 5 }] },
    // Tab 5 shows nothing the browser says; the router knows its page.
    tools: { getTools: async (tabId: number) => ({ tabId, tools: [], page: tabId === 5 ? { url: `${BANK}/x` } : {} }) },
    clients: { list: () => [{ id: 'c1', name: 'Agent' }] },
    link: () => link,
    storage,
  };
  return { deps, choices };
}

describe('readSharingState', () => {
  it('shows the switch, the link, the clients, the shared sites and tabs, and whether a code is kept', async () => {
    const { deps, choices } = await setup(true, { 'mcpBridge.pairingCode': 'ABCDEFGHJKMN' });
    choices.shareTab(2, BANK);
    expect(await readSharingState(deps)).toEqual({
      enabled: true,
      link: { state: 'open' },
      clients: [{ id: 'c1', name: 'Agent' }],
      sites: [SHOP],
      tabs: [{ tabId: 2, site: BANK, title: 'Bank' }],
      paired: true,
    });
  });

  it('says how the panel’s tab is shared: by its site, alone, or not; its site from the router when the tab shows none', async () => {
    const { deps, choices } = await setup();
    choices.shareTab(2, BANK);
    expect((await readSharingState(deps, 1)).tab).toEqual({ tabId: 1, site: SHOP, shared: 'site' });
    expect((await readSharingState(deps, 2)).tab).toEqual({ tabId: 2, site: BANK, shared: 'tab' });
    expect((await readSharingState(deps, 5)).tab).toEqual({ tabId: 5, site: BANK, shared: false });
    expect((await readSharingState(deps, 9)).tab).toEqual({ tabId: 9, shared: false });
  });

  it('lists no shared tab while sharing is off', async () => {
    const { deps, choices } = await setup(false);
    choices.shareTab(2, BANK);
    const state = await readSharingState(deps);
    expect(state).toMatchObject({ enabled: false, tabs: [], paired: false });
  });
});
