import { describe, expect, it } from 'vitest';
import { browserSessionId, createConversationStore } from './conversations';
import { createMemoryStorageArea } from './memory-storage-area';

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

describe('browserSessionId', () => {
  it('creates the id once and reads it back afterwards', async () => {
    const area = createMemoryStorageArea();
    const first = await browserSessionId(area, () => 'abc');
    expect(first).toBe('abc');
    expect(await browserSessionId(area, () => 'other')).toBe('abc');
  });
});
