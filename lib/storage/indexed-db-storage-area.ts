import type { StorageArea, StorageChange } from '../messaging/storage-area';

/**
 * The slices of IndexedDB and BroadcastChannel this area uses, so lib/ stays free of browser globals: the extension
 * passes `indexedDB` and `(name) => new BroadcastChannel(name)`; tests pass in-memory ones.
 */
// The DOM types its handlers with `this` and event classes that Node lacks: any handler fits.
type IdbHandler = ((...args: any[]) => any) | null;
export interface IdbFactoryLike {
  open(name: string, version?: number): IdbOpenRequestLike;
}
interface IdbRequestLike<T> {
  result: T;
  error: unknown;
  onsuccess: IdbHandler;
  onerror: IdbHandler;
}
interface IdbOpenRequestLike extends IdbRequestLike<IdbDatabaseLike> {
  onupgradeneeded: IdbHandler;
}
interface IdbDatabaseLike {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: 'readonly' | 'readwrite'): IdbTransactionLike;
}
interface IdbTransactionLike {
  objectStore(name: string): IdbObjectStoreLike;
  oncomplete: IdbHandler;
  onerror: IdbHandler;
  onabort: IdbHandler;
  error: unknown;
}
interface IdbObjectStoreLike {
  get(key: string): IdbRequestLike<unknown>;
  put(value: unknown, key: string): unknown;
  delete(key: string): unknown;
}
/** A BroadcastChannel: every extension page of the same origin hears what one posts. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

interface IndexedDbStorageAreaOptions {
  indexedDB: IdbFactoryLike;
  /** Database name. Default 'webmcp-agent'. */
  databaseName?: string;
  /** Opens the change channel shared by the extension's pages (BroadcastChannel). Without it, only this context hears. */
  openChannel?: (name: string) => ChannelLike;
}

const STORE = 'items';
const CHANNEL = 'webmcp-agent-storage';

/**
 * A StorageArea kept in the extension origin's IndexedDB. Firefox lets content scripts read and write
 * `storage.local` (and `storage.sync`) and has no setting to stop it, but a content script's IndexedDB is the page's,
 * never the extension's: so on Firefox the key, conversations, grants, site profiles and policy live here.
 *
 * Change events: every write tells this context's listeners and, over a BroadcastChannel, the extension's other
 * pages (the options page, the background page that hosts the agent). A change names only the keys (no values): a
 * listener re-reads what it needs, so a forged notice could cause a re-read and nothing else.
 */
export function createIndexedDbStorageArea(options: IndexedDbStorageAreaOptions): StorageArea {
  const name = options.databaseName ?? 'webmcp-agent';
  const listeners = new Set<(changes: Record<string, StorageChange>) => void>();
  const emit = (keys: readonly string[]) => {
    if (keys.length === 0) return;
    const changes = Object.fromEntries(keys.map((key) => [key, {}])) as Record<string, StorageChange>;
    for (const listener of [...listeners]) listener(changes);
  };
  const channel = options.openChannel?.(CHANNEL);
  channel?.addEventListener('message', (event) => {
    const keys = (event.data as { keys?: unknown } | null)?.keys;
    if (Array.isArray(keys)) emit(keys.filter((k): k is string => typeof k === 'string'));
  });

  let db: Promise<IdbDatabaseLike> | undefined;
  const database = () => {
    db ??= new Promise<IdbDatabaseLike>((resolve, reject) => {
      const request = options.indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(asError(request.error, `The extension's database "${name}" could not be opened`));
    });
    // A failed open is retried on the next call rather than remembered.
    db.catch(() => (db = undefined));
    return db;
  };

  const write = async (mode: 'readwrite', body: (store: IdbObjectStoreLike) => void) => {
    const tx = (await database()).transaction(STORE, mode);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(asError(tx.error, 'The write to the extension database failed'));
      tx.onabort = () => reject(asError(tx.error, 'The write to the extension database was aborted'));
      body(tx.objectStore(STORE));
    });
  };

  const changed = (keys: string[]) => {
    emit(keys);
    channel?.postMessage({ keys });
  };

  return {
    async get(keys) {
      const tx = (await database()).transaction(STORE, 'readonly');
      const store = tx.objectStore(STORE);
      const values = await Promise.all(
        keys.map(
          (key) =>
            new Promise<[string, unknown]>((resolve, reject) => {
              const request = store.get(key);
              request.onsuccess = () => resolve([key, request.result]);
              request.onerror = () => reject(asError(request.error, 'The read from the extension database failed'));
            }),
        ),
      );
      return Object.fromEntries(values.filter(([, value]) => value !== undefined));
    },
    async set(items) {
      const entries = Object.entries(items).filter(([, value]) => value !== undefined);
      if (entries.length === 0) return;
      // JSON-compatible values, as browser.storage takes them: a clone now, so a later mutation is not stored.
      await write('readwrite', (store) => {
        for (const [key, value] of entries) store.put(JSON.parse(JSON.stringify(value)), key);
      });
      changed(entries.map(([key]) => key));
    },
    async remove(keys) {
      if (keys.length === 0) return;
      await write('readwrite', (store) => {
        for (const key of keys) store.delete(key);
      });
      changed([...keys]);
    },
    onChanged: {
      addListener: (listener) => void listeners.add(listener),
      removeListener: (listener) => void listeners.delete(listener),
    },
  };
}

function asError(error: unknown, fallback: string): Error {
  if (error instanceof Error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  return new Error(typeof message === 'string' && message ? `${fallback}: ${message}` : `${fallback}.`);
}

const MIGRATED_KEY = 'storage.migratedFromStorageLocal';

/**
 * Moves everything the extension kept in `storage.local` (before the privileged data moved) into `to`, then
 * deletes it from `storage.local`. Runs once: afterwards a flag in `to` stops it, so a content script that writes
 * into `storage.local` later can never have its values carried in. Existing values in `to` win over old ones.
 * Resolves to the keys moved.
 */
export async function migrateFromStorageLocal(
  from: { getAll(): Promise<Record<string, unknown>>; remove(keys: string[]): Promise<void> },
  to: StorageArea,
): Promise<string[]> {
  if ((await to.get([MIGRATED_KEY]))[MIGRATED_KEY] === true) return [];
  const old = await from.getAll();
  const keys = Object.keys(old);
  const present = keys.length > 0 ? await to.get(keys) : {};
  const moving = Object.fromEntries(Object.entries(old).filter(([key]) => !(key in present)));
  await to.set({ ...moving, [MIGRATED_KEY]: true });
  if (keys.length > 0) await from.remove(keys);
  return Object.keys(moving);
}
