import { describe, expect, it } from 'vitest';
import type { TabClosedMessage } from '../messaging/host-channel';
import { browserSessionId, createConversationStore } from '../storage/conversations';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { report, setup, tool, until } from '../testing/tool-router-fixtures';
import { setUpTabEvents } from './set-up-tab-events';

/** tabs.onUpdated and tabs.onRemoved cannot run in Node: the listeners, onRemoved's fired by the test as the browser would. */
function tabEvents() {
  const updated: ((tabId: number, change: { status?: string; url?: string }) => void)[] = [];
  const removed: ((tabId: number, removeInfo: { isWindowClosing?: boolean }) => void)[] = [];
  return {
    tabs: {
      onUpdated: { addListener: (l: (typeof updated)[number]) => void updated.push(l) },
      onRemoved: { addListener: (l: (typeof removed)[number]) => void removed.push(l) },
    },
    remove: (tabId: number, removeInfo: { isWindowClosing?: boolean }) => {
      for (const listener of removed) listener(tabId, removeInfo);
    },
  };
}

async function start(tellHost: (message: TabClosedMessage) => Promise<unknown>) {
  const events = tabEvents();
  const { router } = setup();
  const storageAreas = { local: createMemoryStorageArea(), session: createMemoryStorageArea() };
  const store = createConversationStore(storageAreas.local, { session: await browserSessionId(storageAreas.session) });
  setUpTabEvents(events.tabs, { toolRouter: router, tellHost, storageAreas });
  return { events, router, store };
}

const convo = (text: string) => ({
  messages: [{ id: text, role: 'user' as const, parts: [{ type: 'text' as const, text }] }],
  url: 'https://a.test/',
});

describe('setUpTabEvents', () => {
  it('a closed tab loses its tools and, with no host running, its conversation', async () => {
    const { events, router, store } = await start(async () => Promise.reject(new Error('Receiving end does not exist.')));
    router.handleFrameMessage({ type: 'frame/tools', report: report('https://a.test', [tool('add')]) }, { tabId: 3, frameId: 0 });
    await until(async () => expect((await router.getTools(3)).tools).toHaveLength(1));
    await store.save(3, convo('secret'));
    events.remove(3, { isWindowClosing: false });
    await until(async () => expect(await store.load(3)).toBeUndefined());
    await until(async () => expect((await router.getTools(3)).tools).toEqual([]));
  });

  it('a running host is told, with whether the window closed too, and storage is left to it', async () => {
    const told: TabClosedMessage[] = [];
    const { events, store } = await start(async (message) => {
      told.push(message);
      return true;
    });
    await store.save(4, convo('kept by the host'));
    events.remove(4, { isWindowClosing: true });
    await until(async () => expect(told).toEqual([{ type: 'host/tab-closed', tabId: 4, keepForRestore: true }]));
    expect((await store.load(4))?.messages[0].id).toBe('kept by the host');
  });
});
