/**
 * Firefox's privileged storage area (set-up-storage-areas.ts): content scripts can read and write storage.local and
 * no setting stops them, so the key, conversations, grants, site profiles and policy live in the extension origin's
 * IndexedDB (content scripts only ever get the page's), read once anything an earlier version left in
 * storage.local has moved into it.
 */
import type { StorageArea } from '../messaging/storage-area';
import { createIndexedDbStorageArea, migrateFromStorageLocal } from '../storage/indexed-db-storage-area';
import { storageAreaAfter } from '../storage/storage-area-after';
import type { BrowserStorageArea } from './set-up-storage-areas';

/** The extension origin's IndexedDB and the pages' change channel (BroadcastChannel). */
type IndexedDbAccess = Pick<Parameters<typeof createIndexedDbStorageArea>[0], 'indexedDB' | 'openChannel'>;

/** Opens the area; reads wait for the move from `local`. */
export function openFirefoxPrivilegedArea(local: Pick<BrowserStorageArea, 'get' | 'remove'>, access: IndexedDbAccess): StorageArea {
  const area = createIndexedDbStorageArea(access);
  const migrated = migrateFromStorageLocal({ getAll: () => local.get(null), remove: (keys) => local.remove(keys) }, area).catch(() => []);
  return storageAreaAfter(area, migrated);
}
