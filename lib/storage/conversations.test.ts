import { describe, expect, it } from 'vitest';
import { browserSessionId, createConversationStore, recordBrowserSession } from './conversations';
import { createMemoryStorageArea } from '../testing/memory-storage-area';

const convo = (text: string, url?: string) => ({
  messages: [{ id: text, role: 'user' as const, parts: [{ type: 'text' as const, text }] }],
  ...(url ? { url } : {}),
});

describe('createConversationStore', () => {
  it('keeps one conversation per tab within a browser session', async () => {
    const area = createMemoryStorageArea();
    const store = createConversationStore(area, { session: 's1' });
    await store.save(1, convo('one'));
    await store.save(2, convo('two'));
    await store.save(1, convo('one again'));
    expect((await store.load(1))?.messages[0].id).toBe('one again');
    expect((await store.load(2))?.messages[0].id).toBe('two');
    await store.remove(2);
    expect(await store.load(2)).toBeUndefined();
  });

  it('after a browser restart, never matches by tab id alone; adopts the newest earlier record with the same URL, once', async () => {
    const area = createMemoryStorageArea();
    let t = 0;
    const before = createConversationStore(area, { session: 'old', now: () => ++t });
    await before.save(1, convo('older', 'https://a.test/'));
    await before.save(2, convo('newer', 'https://a.test/'));
    const after = createConversationStore(area, { session: 'new', now: () => ++t });
    expect(await after.load(1)).toBeUndefined();
    expect((await after.load(5, 'https://a.test/'))?.messages[0].id).toBe('newer');
    expect((await after.load(6, 'https://a.test/'))?.messages[0].id).toBe('older');
    expect(await after.load(7, 'https://a.test/')).toBeUndefined();
    expect((await after.load(5))?.messages[0].id).toBe('newer');
  });

  it('keeps a conversation’s task tabs with it, and deletes them with it', async () => {
    const area = createMemoryStorageArea();
    const store = createConversationStore(area, { session: 's1', generateKey: () => 'k1' });
    const tabs = [{ tabId: 7, site: 'https://recipes.example' }];
    await store.save(1, { ...convo('errand'), tabs });
    expect((await store.load(1))?.tabs).toEqual(tabs);
    await store.forgetTab(1);
    expect(await store.load(1)).toBeUndefined();
    expect(await area.get(['conversation:k1'])).toEqual({});
  });

  it('a conversation adopted by URL comes back without its task tabs: their ids named tabs of before', async () => {
    const area = createMemoryStorageArea();
    const before = createConversationStore(area, { session: 'old' });
    await before.save(1, { ...convo('errand', 'https://shop.example/'), tabs: [{ tabId: 2, site: 'https://recipes.example' }] });
    const after = createConversationStore(area, { session: 'new' });
    const adopted = await after.load(9, 'https://shop.example/');
    expect(adopted?.messages[0].id).toBe('errand');
    expect(adopted?.tabs).toBeUndefined();
    // Read again by its new id (the host restarted before any save): still without them.
    expect((await after.load(9))?.tabs).toBeUndefined();
  });

  it('keeps at most `limit` conversations, dropping the least recently written', async () => {
    const area = createMemoryStorageArea();
    let t = 0;
    const store = createConversationStore(area, { session: 's', limit: 2, now: () => ++t });
    await store.save(1, convo('a'));
    await store.save(2, convo('b'));
    await store.save(3, convo('c'));
    expect(await store.load(1)).toBeUndefined();
    expect((await store.load(3))?.messages[0].id).toBe('c');
    const keys = Object.keys(await area.get(['conversations', ...[1, 2, 3].map(String)]));
    expect(keys).toEqual(['conversations']);
  });

  it('reads malformed storage as empty instead of failing', async () => {
    const area = createMemoryStorageArea({ conversations: 'garbage' });
    const store = createConversationStore(area, { session: 's' });
    expect(await store.load(1, 'https://a.test/')).toBeUndefined();
    await store.save(1, convo('x'));
    expect((await store.load(1))?.messages[0].id).toBe('x');
  });
});

describe('closed tabs and retention', () => {
  it('a tab the person closed loses its conversation at once, record and index entry', async () => {
    const area = createMemoryStorageArea();
    const store = createConversationStore(area, { session: 's', generateKey: () => 'k1' });
    await store.save(1, convo('ssn 123-45-6789', 'https://a.test/'));
    await store.forgetTab(1);
    expect(await area.get(['conversation:k1'])).toEqual({});
    expect((await area.get(['conversations'])).conversations).toEqual([]);
    // A tab reopened with the same URL gets nothing back.
    expect(await store.load(2, 'https://a.test/')).toBeUndefined();
  });

  it('a tab closed with its window keeps its conversation for a restored tab of the same URL, in this session or the next', async () => {
    const area = createMemoryStorageArea();
    let t = 0;
    const store = createConversationStore(area, { session: 's', now: () => ++t });
    await store.save(1, convo('kept', 'https://a.test/'));
    await store.save(2, convo('other', 'https://b.test/'));
    await store.forgetTab(1, { keepForRestore: true });
    await store.forgetTab(2, { keepForRestore: true });
    // The closed tab's id no longer reaches it.
    expect(await store.load(1)).toBeUndefined();
    // Reopening the closed window (same session, new tab id) adopts it by URL.
    expect((await store.load(9, 'https://a.test/'))?.messages[0].id).toBe('kept');
    // After a restart, the other one is adopted the same way.
    const next = createConversationStore(area, { session: 'next', now: () => ++t });
    expect((await next.load(3, 'https://b.test/'))?.messages[0].id).toBe('other');
    expect((await next.load(3))?.messages[0].id).toBe('other');
  });

  it('forgetting a tab with no conversation changes nothing', async () => {
    const area = createMemoryStorageArea();
    const store = createConversationStore(area, { session: 's' });
    await store.save(1, convo('one'));
    await store.forgetTab(2);
    expect((await store.load(1))?.messages[0].id).toBe('one');
  });

  it('removeAll deletes every record and the index', async () => {
    const area = createMemoryStorageArea();
    let n = 0;
    const store = createConversationStore(area, { session: 's', generateKey: () => `k${++n}` });
    await store.save(1, convo('a'));
    await store.save(2, convo('b'));
    await store.removeAll();
    expect(await area.get(['conversations', 'conversation:k1', 'conversation:k2'])).toEqual({});
    expect(await store.load(1)).toBeUndefined();
  });

  it('each start keeps this session and the one before; older records nobody adopted are deleted', async () => {
    const area = createMemoryStorageArea();
    let t = 0;
    const one = createConversationStore(area, { session: 'one', now: () => ++t, generateKey: () => `one-${t}` });
    await recordBrowserSession(area, 'one');
    await one.save(1, convo('from one', 'https://a.test/'));
    await one.save(2, convo('adopted later', 'https://b.test/'));

    // Start of session two: session one's records stay, for restore to adopt.
    expect(await recordBrowserSession(area, 'two')).toEqual(['one', 'two']);
    const two = createConversationStore(area, { session: 'two', now: () => ++t });
    await two.keepSessions(['one', 'two']);
    expect((await two.load(5, 'https://b.test/'))?.messages[0].id).toBe('adopted later');

    // Start of session three: the record nobody adopted during session two is deleted; the adopted one stays.
    expect(await recordBrowserSession(area, 'three')).toEqual(['two', 'three']);
    const three = createConversationStore(area, { session: 'three', now: () => ++t });
    await three.keepSessions(['two', 'three']);
    expect(await three.load(7, 'https://a.test/')).toBeUndefined();
    expect(JSON.stringify(await area.get(['conversations']))).not.toContain('https://a.test/');
    expect((await three.load(8, 'https://b.test/'))?.messages[0].id).toBe('adopted later');
  });

  it('recording the same session again changes nothing', async () => {
    const area = createMemoryStorageArea();
    await recordBrowserSession(area, 'a');
    await recordBrowserSession(area, 'b');
    expect(await recordBrowserSession(area, 'b')).toEqual(['a', 'b']);
  });
});

describe('browserSessionId', () => {
  it('creates the id once and reads it back afterwards', async () => {
    const area = createMemoryStorageArea();
    const first = await browserSessionId(area, () => 'abc');
    expect(first).toBe('abc');
    expect(await browserSessionId(area, () => 'other')).toBe('abc');
  });
});
