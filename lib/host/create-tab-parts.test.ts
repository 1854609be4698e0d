import { describe, expect, it } from 'vitest';
import { createConversationStore } from '../storage/conversations';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostRouterClient } from './agent-host-deps';
import { createTabParts } from './create-tab-parts';

const SHOP = 'https://shop.test';

describe('createTabParts', () => {
  it('wires the calls to the tools, the timeline and the conversation: a call by hand runs on the page and is recorded', async () => {
    const local = createMemoryStorageArea();
    const ran: string[] = [];
    const bridge: HostRouterClient = {
      getTools: async (tabId) => ({
        tabId,
        page: { url: `${SHOP}/`, title: 'Shop' },
        tools: [
          {
            name: 'search',
            originalName: 'search',
            origin: SHOP,
            frameId: 0,
            description: 'Search',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
      }),
      callTool: async (_tabId, call) => {
        ran.push(call.name);
        return { content: [{ type: 'text', text: 'found' }] };
      },
      subscribe: () => () => {},
    };
    let changes = 0;
    const parts = createTabParts(
      {
        tabId: 1,
        store: createConversationStore(local, { session: 's' }),
        bridge,
        settings: createSettingsStore({ local }),
        adapter: async () => ({ unavailable: 'none here' }),
        generateId: () => crypto.randomUUID(),
        saveDelayMs: 1,
      },
      { emit: () => changes++, emitNow: () => changes++ },
    );
    await parts.ready;
    await parts.tabTools.refresh();
    expect(parts.currentSite()).toBe(SHOP);
    await parts.calls.runByHand('search', {}, 'req-1');
    expect(ran).toEqual(['search']);
    expect(parts.timeline.entries()).toMatchObject([{ tool: 'search', requestId: 'req-1', by: 'person', state: 'done' }]);
    expect(changes).toBeGreaterThan(0);
  });
});
