import { describe, expect, it } from 'vitest';
import { createSettingsStore } from './settings-store';
import { type ChannelLike, createIndexedDbStorageArea, type IdbFactoryLike, migrateFromStorageLocal } from './indexed-db-storage-area';
import { createMemoryStorageArea } from '../testing/memory-storage-area';

/**
 * A small in-memory IndexedDB (Node has none): databases of object stores, requests that succeed on a later task and
 * transactions that complete after their requests, as the real one does. Writes can be made to fail.
 */
function memoryIndexedDB() {
  const databases = new Map<string, Map<string, Map<string, unknown>>>();
  const later = (fn: () => void) => setTimeout(fn, 0);
  const factory: IdbFactoryLike & { failWrites: boolean; opens: number } = {
    failWrites: false,
    opens: 0,
    open(name) {
      factory.opens++;
      const request: any = { result: undefined, error: null, onsuccess: null, onerror: null, onupgradeneeded: null };
      later(() => {
        const isNew = !databases.has(name);
        const stores = databases.get(name) ?? new Map<string, Map<string, unknown>>();
        databases.set(name, stores);
        request.result = {
          objectStoreNames: { contains: (s: string) => stores.has(s) },
          createObjectStore: (s: string) => stores.set(s, new Map()),
          transaction: (s: string, mode: string) => {
            const tx: any = { oncomplete: null, onerror: null, onabort: null, error: null };
            let pending = 0;
            const finish = () => later(() => (factory.failWrites && mode === 'readwrite' ? tx.onabort?.({}) : tx.oncomplete?.({})));
            const staged = new Map(stores.get(s));
            const commit = () => {
              if (!(factory.failWrites && mode === 'readwrite')) stores.set(s, staged);
            };
            const op = <T>(fn: () => T) => {
              pending++;
              const req: any = { result: undefined, error: null, onsuccess: null, onerror: null };
              later(() => {
                req.result = fn();
                req.onsuccess?.({});
                if (--pending === 0) {
                  commit();
                  finish();
                }
              });
              return req;
            };
            tx.objectStore = () => ({
              get: (key: string) => op(() => structuredClone(staged.get(key))),
              put: (value: unknown, key: string) => op(() => void staged.set(key, structuredClone(value))),
              delete: (key: string) => op(() => void staged.delete(key)),
            });
            return tx;
          },
        };
        if (isNew) request.onupgradeneeded?.({});
        request.onsuccess?.({});
      });
      return request;
    },
  };
  return factory;
}

/** BroadcastChannels of one origin: a message reaches every other channel of the same name. */
function channels() {
  const open: { name: string; listeners: ((event: { data: unknown }) => void)[] }[] = [];
  return (name: string): ChannelLike => {
    const self = { name, listeners: [] as ((event: { data: unknown }) => void)[] };
    open.push(self);
    return {
      postMessage: (data) => {
        for (const other of open)
          if (other !== self && other.name === name) for (const l of other.listeners) l({ data: structuredClone(data) });
      },
      addEventListener: (_type, listener) => void self.listeners.push(listener),
    };
  };
}

describe('createIndexedDbStorageArea', () => {
  it('gets, sets and removes like browser.storage: copies in and out, absent keys left out', async () => {
    const area = createIndexedDbStorageArea({ indexedDB: memoryIndexedDB() });
    const value = { a: [1, 2] };
    await area.set({ one: value, two: 'x', skipped: undefined });
    value.a.push(3);
    expect(await area.get(['one', 'two', 'missing', 'skipped'])).toEqual({ one: { a: [1, 2] }, two: 'x' });
    await area.remove(['two']);
    expect(await area.get(['one', 'two'])).toEqual({ one: { a: [1, 2] } });
  });

  it('keeps its data across contexts of the same origin (another area over the same database)', async () => {
    const indexedDB = memoryIndexedDB();
    await createIndexedDbStorageArea({ indexedDB }).set({ k: 'v' });
    expect(await createIndexedDbStorageArea({ indexedDB }).get(['k'])).toEqual({ k: 'v' });
  });

  it('tells its own listeners and the other pages which keys changed, never the values', async () => {
    const indexedDB = memoryIndexedDB();
    const openChannel = channels();
    const options = createIndexedDbStorageArea({ indexedDB, openChannel });
    const background = createIndexedDbStorageArea({ indexedDB, openChannel });
    const here: unknown[] = [];
    const there: unknown[] = [];
    options.onChanged.addListener((c) => here.push(c));
    background.onChanged.addListener((c) => there.push(c));
    await options.set({ 'settings.confirmation': 'never', 'secret.apiKey.openai': 'sk-x' });
    await options.remove(['settings.grants']);
    const expected = [{ 'settings.confirmation': {}, 'secret.apiKey.openai': {} }, { 'settings.grants': {} }];
    expect(here).toEqual(expected);
    expect(there).toEqual(expected);
    expect(JSON.stringify(there)).not.toContain('sk-x');
  });

  it('a settings store over it follows a save made in another page (the options page saves, the host hears)', async () => {
    const indexedDB = memoryIndexedDB();
    const openChannel = channels();
    const optionsPage = createSettingsStore({ local: createIndexedDbStorageArea({ indexedDB, openChannel }) });
    const host = createSettingsStore({ local: createIndexedDbStorageArea({ indexedDB, openChannel }) });
    const heard = new Promise<string>((resolve) => host.subscribe((s) => resolve(s.confirmation)));
    await optionsPage.setConfirmationPolicy('non-read-only');
    expect(await heard).toBe('non-read-only');
    await optionsPage.saveApiKey('openai', 'sk-proj-abcdefghijklmnopqrstuvwxyz0123');
    expect(await host.readApiKey('openai')).toBe('sk-proj-abcdefghijklmnopqrstuvwxyz0123');
  });

  it('a forged change notice only makes listeners re-read: it carries no value anyone stores', async () => {
    const indexedDB = memoryIndexedDB();
    const openChannel = channels();
    const area = createIndexedDbStorageArea({ indexedDB, openChannel });
    // A policy the person picked (the mark keeps the old default from moving to the new one).
    await area.set({ 'settings.confirmation': 'consequential', 'settings.confirmationChosen': true });
    const store = createSettingsStore({ local: area });
    const seen = new Promise<string>((resolve) => store.subscribe((s) => resolve(s.confirmation)));
    openChannel('webmcp-agent-storage').postMessage({ keys: ['settings.confirmation'], 'settings.confirmation': 'never' });
    expect(await seen).toBe('consequential');
  });

  it('a failed write rejects with a reason, tells nobody, and changes nothing', async () => {
    const indexedDB = memoryIndexedDB();
    const area = createIndexedDbStorageArea({ indexedDB });
    await area.set({ k: 'old' });
    const heard: unknown[] = [];
    area.onChanged.addListener((c) => heard.push(c));
    indexedDB.failWrites = true;
    await expect(area.set({ k: 'new' })).rejects.toThrow(/extension database/);
    indexedDB.failWrites = false;
    expect(await area.get(['k'])).toEqual({ k: 'old' });
    expect(heard).toEqual([]);
  });
});

describe('migrateFromStorageLocal', () => {
  const oldLocal = (items: Record<string, unknown>) => {
    const area = createMemoryStorageArea(items);
    return {
      area,
      port: {
        getAll: async () => area.get(Object.keys(items)),
        remove: (keys: string[]) => area.remove(keys),
      },
    };
  };

  it('moves every old value out of storage.local, deleting it there', async () => {
    const from = oldLocal({ 'secret.apiKey.openai': 'sk-old', 'settings.mode': 'cloud', conversations: [] });
    const to = createIndexedDbStorageArea({ indexedDB: memoryIndexedDB() });
    expect((await migrateFromStorageLocal(from.port, to)).sort()).toEqual(['conversations', 'secret.apiKey.openai', 'settings.mode']);
    expect(await to.get(['secret.apiKey.openai', 'settings.mode'])).toEqual({ 'secret.apiKey.openai': 'sk-old', 'settings.mode': 'cloud' });
    expect(await from.area.get(['secret.apiKey.openai', 'settings.mode', 'conversations'])).toEqual({});
  });

  it('runs once: what a content script writes into storage.local later is never carried in', async () => {
    const to = createIndexedDbStorageArea({ indexedDB: memoryIndexedDB() });
    await migrateFromStorageLocal(oldLocal({ 'settings.confirmation': 'consequential' }).port, to);
    const attacker = oldLocal({ 'settings.confirmation': 'never', 'secret.apiKey.openai': 'sk-attacker' });
    expect(await migrateFromStorageLocal(attacker.port, to)).toEqual([]);
    expect(await to.get(['settings.confirmation', 'secret.apiKey.openai'])).toEqual({ 'settings.confirmation': 'consequential' });
  });

  it('values already in the database win over old ones', async () => {
    const to = createIndexedDbStorageArea({ indexedDB: memoryIndexedDB() });
    await to.set({ 'settings.mode': 'local' });
    expect(await migrateFromStorageLocal(oldLocal({ 'settings.mode': 'cloud' }).port, to)).toEqual([]);
    expect(await to.get(['settings.mode'])).toEqual({ 'settings.mode': 'local' });
  });
});
