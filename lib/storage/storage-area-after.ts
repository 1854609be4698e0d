import type { StorageArea } from '../messaging/storage-area';

/**
 * The area, with every read and write held until `ready` settles: for an area that a one-time migration fills at
 * start (Firefox's privileged storage), so nothing reads the defaults in the moment before the old values arrive.
 */
export function storageAreaAfter(area: StorageArea, ready: Promise<unknown>): StorageArea {
  const settled = ready.then(
    () => undefined,
    () => undefined,
  );
  return {
    get: (keys) => settled.then(() => area.get(keys)),
    set: (items) => settled.then(() => area.set(items)),
    remove: (keys) => settled.then(() => area.remove(keys)),
    onChanged: area.onChanged,
  };
}
