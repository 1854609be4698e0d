import { describe, expect, it, vi } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createSharingChoices } from './sharing-choices';
import { createSharingIntents } from './sharing-intents';

const SHOP = 'https://shop.example';
const BANK = 'https://bank.example';

async function setup(enabled = true) {
  const storage = createMemoryStorageArea({ 'mcpBridge.enabled': enabled, 'mcpBridge.sites': [SHOP] });
  const choices = createSharingChoices(storage);
  const stopped: ((call: { site: string; tabId: number }) => boolean)[] = [];
  const deps = {
    choices,
    browser: {
      open: vi.fn(async () => ({ state: 'open' as const })),
      close: vi.fn(async () => ({ state: 'closed' as const })),
      tabs: async () => [
        { tabId: 1, url: `${SHOP}/` },
        { tabId: 2, url: `${BANK}/` },
        { tabId: 3, url: 'chrome://settings/' },
      ],
    },
    storage,
    clients: { stopCallsOn: (match: (call: { site: string; tabId: number }) => boolean) => void stopped.push(match) },
    listMayHaveChanged: vi.fn(),
    broadcast: vi.fn(async () => undefined),
  };
  return { intents: createSharingIntents(deps), deps, choices, storage, stopped };
}

describe('createSharingIntents', () => {
  it('turns sharing on (the native host opens) and off (every call ends, the host closes), and keeps the switch', async () => {
    const { intents, deps, stopped, storage } = await setup(false);
    await intents['sharing/set-enabled']({ type: 'sharing/set-enabled', enabled: 'yes' as never }, undefined);
    expect(deps.browser.open).not.toHaveBeenCalled();
    await intents['sharing/set-enabled']({ type: 'sharing/set-enabled', enabled: true }, undefined);
    expect(deps.browser.open).toHaveBeenCalledTimes(1);
    expect(await storage.get(['mcpBridge.enabled'])).toEqual({ 'mcpBridge.enabled': true });
    await intents['sharing/set-enabled']({ type: 'sharing/set-enabled', enabled: false }, undefined);
    expect(deps.browser.close).toHaveBeenCalledTimes(1);
    expect(stopped[0]({ site: SHOP, tabId: 1 })).toBe(true);
    expect(deps.broadcast).toHaveBeenCalledTimes(2);
  });

  it('shares a web page’s site or just its tab while sharing is on; never the browser’s own pages', async () => {
    const { intents, choices, deps } = await setup();
    await intents['sharing/share']({ type: 'sharing/share', tabId: 3, scope: 'site' }, undefined);
    await intents['sharing/share']({ type: 'sharing/share', tabId: 2, scope: 'everything' as never }, undefined);
    expect(deps.listMayHaveChanged).not.toHaveBeenCalled();
    await intents['sharing/share']({ type: 'sharing/share', tabId: 2, scope: 'tab' }, undefined);
    expect(choices.sites()).toEqual([SHOP]);
    expect(choices.tabShares()).toEqual([{ tabId: 2, site: BANK }]);
    await intents['sharing/share']({ type: 'sharing/share', tabId: 2, scope: 'site' }, undefined);
    expect(choices.sites()).toEqual([SHOP, BANK]);
    expect(deps.listMayHaveChanged).toHaveBeenCalledTimes(2);

    const off = await setup(false);
    await off.intents['sharing/share']({ type: 'sharing/share', tabId: 1, scope: 'tab' }, undefined);
    expect(off.choices.tabShares()).toEqual([]);
  });

  it('stops a site with its calls, and a tab with its calls unless its site stays shared', async () => {
    const { intents, choices, stopped } = await setup();
    await choices.load();
    choices.shareTab(2, BANK);
    choices.shareTab(1, SHOP);
    await intents['sharing/stop']({ type: 'sharing/stop', tabId: 1 }, undefined);
    expect(stopped[0]({ site: SHOP, tabId: 1 })).toBe(false);
    await intents['sharing/stop']({ type: 'sharing/stop', tabId: 2 }, undefined);
    expect(stopped[1]({ site: BANK, tabId: 2 })).toBe(true);
    expect(stopped[1]({ site: BANK, tabId: 5 })).toBe(false);
    await intents['sharing/stop']({ type: 'sharing/stop', site: SHOP }, undefined);
    expect(stopped[2]({ site: SHOP, tabId: 9 })).toBe(true);
    expect(choices.sites()).toEqual([]);
  });

  it('keeps a pairing code and restarts the host with it while sharing is on; refuses a code that is not one', async () => {
    const { intents, deps, storage } = await setup();
    await intents['sharing/pair']({ type: 'sharing/pair', code: 'short' }, undefined);
    expect(deps.browser.close).not.toHaveBeenCalled();
    await intents['sharing/pair']({ type: 'sharing/pair', code: 'abcd-efgh-jkmn' }, undefined);
    expect(await storage.get(['mcpBridge.pairingCode'])).toEqual({ 'mcpBridge.pairingCode': 'ABCDEFGHJKMN' });
    expect(deps.browser.close).toHaveBeenCalledTimes(1);
    expect(deps.browser.open).toHaveBeenCalledTimes(1);
  });
});
