import type { StorageArea, StorageChange } from '../messaging/storage-area';

/**
 * A StorageArea held in memory, with browser.storage's semantics: values are copied in and out (as the
 * browser serialises them), and listeners hear every change after it is applied, with old and new values.
 * For unit tests and for contexts that have no storage of their own.
 */
export function createMemoryStorageArea(initial: Record<string, unknown> = {}): StorageArea {
  const items = new Map<string, unknown>(Object.entries(structuredClone(initial)));
  const listeners = new Set<(changes: Record<string, StorageChange>) => void>();

  const emit = (changes: Record<string, StorageChange>) => {
    if (Object.keys(changes).length === 0) return;
    for (const listener of [...listeners]) listener(structuredClone(changes));
  };

  return {
    async get(keys) {
      const result: Record<string, unknown> = {};
      for (const key of keys) if (items.has(key)) result[key] = structuredClone(items.get(key));
      return result;
    },
    async set(values) {
      const changes: Record<string, StorageChange> = {};
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        const copy = structuredClone(value);
        changes[key] = items.has(key) ? { oldValue: items.get(key), newValue: copy } : { newValue: copy };
        items.set(key, copy);
      }
      emit(changes);
    },
    async remove(keys) {
      const changes: Record<string, StorageChange> = {};
      for (const key of keys) {
        if (!items.has(key)) continue;
        changes[key] = { oldValue: items.get(key) };
        items.delete(key);
      }
      emit(changes);
    },
    onChanged: {
      addListener: (listener) => void listeners.add(listener),
      removeListener: (listener) => void listeners.delete(listener),
    },
  };
}
