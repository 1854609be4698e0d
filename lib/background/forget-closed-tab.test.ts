import { describe, expect, it } from 'vitest';
import type { TabClosedMessage } from '../messaging/host-channel';
import { isTabClosedMessage } from '../messaging/host-channel';
import { createConversationStore } from '../storage/conversations';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { forgetClosedTab } from './forget-closed-tab';

const convo = (text: string, url: string) => ({
  messages: [{ id: text, role: 'user' as const, parts: [{ type: 'text' as const, text }] }],
  url,
});

function setup() {
  const area = createMemoryStorageArea();
  const store = createConversationStore(area, { session: 's' });
  return { area, store };
}

describe('forgetClosedTab', () => {
  it('with no host running, deletes the closed tab’s conversation itself', async () => {
    const { store } = setup();
    await store.save(3, convo('secret', 'https://a.test/'));
    await forgetClosedTab(
      3,
      { isWindowClosing: false },
      {
        tellHost: async () => {
          throw new Error('Could not establish connection. Receiving end does not exist.');
        },
        store: async () => store,
      },
    );
    expect(await store.load(3)).toBeUndefined();
    expect(await store.load(4, 'https://a.test/')).toBeUndefined();
  });

  it('a tab closed with its window is kept for restore', async () => {
    const { store } = setup();
    await store.save(3, convo('kept', 'https://a.test/'));
    await forgetClosedTab(3, { isWindowClosing: true }, { tellHost: async () => undefined, store: async () => store });
    expect((await store.load(9, 'https://a.test/'))?.messages[0].id).toBe('kept');
  });

  it('a running host does it: the background then leaves storage alone', async () => {
    const { store } = setup();
    await store.save(3, convo('host deletes', 'https://a.test/'));
    const told: TabClosedMessage[] = [];
    await forgetClosedTab(
      3,
      {},
      {
        tellHost: async (message) => {
          told.push(message);
          return true;
        },
        store: async () => {
          throw new Error('the background must not touch storage while the host runs');
        },
      },
    );
    expect(told).toEqual([{ type: 'host/tab-closed', tabId: 3, keepForRestore: false }]);
    expect(told.every(isTabClosedMessage)).toBe(true);
  });
});

describe('isTabClosedMessage', () => {
  it('accepts only the declared shape', () => {
    expect(isTabClosedMessage({ type: 'host/tab-closed', tabId: 1, keepForRestore: false })).toBe(true);
    expect(isTabClosedMessage({ type: 'host/tab-closed', tabId: '1', keepForRestore: false })).toBe(false);
    expect(isTabClosedMessage({ type: 'host/tab-closed', tabId: 1 })).toBe(false);
    expect(isTabClosedMessage(null)).toBe(false);
  });
});
