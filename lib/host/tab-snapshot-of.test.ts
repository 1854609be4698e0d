import { describe, expect, it } from 'vitest';
import { createConversationStore } from '../storage/conversations';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostRouterClient } from './agent-host-deps';
import { createTabParts } from './create-tab-parts';
import { tabSnapshotOf } from './tab-snapshot-of';

const SHOP = 'https://shop.test';
const PAGE = { url: `${SHOP}/cart`, title: 'Cart' };

/** A tab's real parts over in-memory storage, and a bridge that reports one tool on the shop's page. */
async function parts() {
  const local = createMemoryStorageArea();
  const bridge: HostRouterClient = {
    getTools: async (tabId) => ({
      tabId,
      page: PAGE,
      tools: [{ name: 'pay', originalName: 'pay', origin: SHOP, frameId: 0, description: 'Pay', inputSchema: { type: 'object' } }],
    }),
    callTool: async () => ({ content: [] }),
    subscribe: () => () => {},
  };
  const made = createTabParts(
    {
      tabId: 7,
      store: createConversationStore(local, { session: 's' }),
      bridge,
      settings: createSettingsStore({ local }),
      adapter: async () => ({ unavailable: 'none here' }),
      generateId: () => crypto.randomUUID(),
      saveDelayMs: 1,
    },
    { emit: () => {}, emitNow: () => {} },
  );
  await made.ready;
  return made;
}

describe('tabSnapshotOf', () => {
  it('says nothing of the tools before the page answered, and leaves out what is empty', async () => {
    const made = await parts();
    expect(tabSnapshotOf(7, made)).toEqual({ tabId: 7, messages: [], running: false, confirmations: [], tools: [], toolsKnown: false });
  });

  it('shows the page’s tools and page once known, the conversation’s sites, and a call’s live state over its card', async () => {
    const made = await parts();
    await made.tabTools.refresh();
    made.conversation.sites = [SHOP];
    made.conversation.messages = [
      { id: 'a1', role: 'assistant', parts: [{ type: 'tool', id: 'c1', name: 'pay', input: {}, state: 'running' }] },
    ];
    made.live.set('c1', { state: 'awaiting-confirmation', prompt: 'Allow pay on shop.test?' });
    const snapshot = tabSnapshotOf(7, made);
    expect(snapshot.toolsKnown).toBe(true);
    expect(snapshot.tools.map((t) => t.name)).toEqual(['pay']);
    expect(snapshot.page).toMatchObject(PAGE);
    expect(snapshot.sites).toEqual([SHOP]);
    expect(snapshot.messages[0].parts[0]).toMatchObject({ state: 'awaiting-confirmation', prompt: 'Allow pay on shop.test?' });
    expect(snapshot).not.toHaveProperty('taskTabs');
  });
});
