import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import type { ConversationStore } from '../storage/conversations';
import { createTabConversation, INTERRUPTED_RUN_ERROR } from './create-tab-conversation';

type Saved = Parameters<ConversationStore['save']>[1];

const user: AgentMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay' }] };
const calling: AgentMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'tool', id: 'c1', name: 'pay', input: {}, state: 'running' }],
};

/** A store holding at most one conversation, recording the loads and saves it was asked for. */
function memoryStore(stored?: Saved) {
  const loads: [number, string | undefined][] = [];
  const saves: [number, Saved][] = [];
  return {
    loads,
    saves,
    load: async (tabId: number, url?: string) => {
      loads.push([tabId, url]);
      return stored;
    },
    save: async (tabId: number, conversation: Saved) => {
      saves.push([tabId, conversation]);
    },
  };
}

describe('createTabConversation', () => {
  it('starts empty when nothing is stored, asking for the tab’s conversation by the URL the panel bound', async () => {
    const store = memoryStore();
    const conversation = createTabConversation({ tabId: 4, url: 'https://shop.test/', store, saveDelayMs: 1 });
    await conversation.ready;
    expect(store.loads).toEqual([[4, 'https://shop.test/']]);
    expect(conversation).toMatchObject({ messages: [], lastRun: undefined, running: false, url: 'https://shop.test/', sites: [] });
    expect(store.saves).toEqual([]);
  });

  it('reads the stored conversation back, adopting its URL when the panel bound none, and keeps only string sites', async () => {
    const store = memoryStore({
      messages: [user],
      lastRun: { reason: 'stop' },
      url: 'https://shop.test/cart',
      sites: ['https://shop.test', 42 as unknown as string],
    });
    const conversation = createTabConversation({ tabId: 4, store, saveDelayMs: 1 });
    await conversation.ready;
    expect(conversation).toMatchObject({
      messages: [user],
      lastRun: { reason: 'stop' },
      url: 'https://shop.test/cart',
      sites: ['https://shop.test'],
    });
    const bound = createTabConversation({ tabId: 4, url: 'https://shop.test/now', store, saveDelayMs: 1 });
    await bound.ready;
    expect(bound.url).toBe('https://shop.test/now');
  });

  it('closes a run that died with its host, says so, and saves that at once', async () => {
    const store = memoryStore({ messages: [user, calling], running: true });
    const conversation = createTabConversation({ tabId: 4, store, saveDelayMs: 60_000 });
    await conversation.ready;
    expect(conversation.lastRun).toEqual({ reason: 'error', error: INTERRUPTED_RUN_ERROR });
    expect(conversation.running).toBe(false);
    expect(conversation.messages[1].parts[0]).toMatchObject({ id: 'c1', state: 'cancelled' });
    expect(store.saves).toEqual([[4, { messages: conversation.messages, lastRun: conversation.lastRun }]]);
  });

  it('treats a store that fails to read as holding nothing', async () => {
    const conversation = createTabConversation({
      tabId: 4,
      store: { load: () => Promise.reject(new Error('storage gone')), save: async () => {} },
      saveDelayMs: 1,
    });
    await conversation.ready;
    expect(conversation.messages).toEqual([]);
  });

  it('saves the fields that say something, batched, and flushes on demand', async () => {
    const store = memoryStore();
    const conversation = createTabConversation({ tabId: 4, store, saveDelayMs: 5 });
    await conversation.ready;
    conversation.messages = [user];
    conversation.save();
    conversation.running = true;
    conversation.sites = ['https://shop.test'];
    conversation.save();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(store.saves).toEqual([[4, { messages: [user], running: true, sites: ['https://shop.test'] }]]);
    conversation.running = false;
    conversation.lastRun = { reason: 'stop' };
    conversation.url = 'https://shop.test/done';
    await conversation.flush();
    await conversation.saved();
    expect(store.saves[1]).toEqual([
      4,
      { messages: [user], lastRun: { reason: 'stop' }, url: 'https://shop.test/done', sites: ['https://shop.test'] },
    ]);
  });

  it('saves its task’s tabs with it and reads them back for the session to check', async () => {
    const store = memoryStore();
    const conversation = createTabConversation({ tabId: 4, store, saveDelayMs: 5 });
    await conversation.ready;
    conversation.messages = [user];
    conversation.tabs = [{ tabId: 9, site: 'https://recipes.test' }];
    await conversation.flush();
    expect(store.saves.at(-1)).toEqual([4, { messages: [user], tabs: [{ tabId: 9, site: 'https://recipes.test' }] }]);
    const again = createTabConversation({ tabId: 4, store: memoryStore(store.saves.at(-1)?.[1]), saveDelayMs: 5 });
    await again.ready;
    expect(again.tabs).toEqual([{ tabId: 9, site: 'https://recipes.test' }]);
  });
});
