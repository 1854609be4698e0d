/**
 * The slice of a key-value storage area the settings need. `browser.storage.local` and `browser.storage.sync`
 * fit it as they are; tests use createMemoryStorageArea.
 * Keeping it a port is what lets lib/ stay free of browser.* and run in Node.
 */
export interface StorageArea {
  /** The stored values of these keys; keys with nothing stored are absent from the result. */
  get(keys: string[]): Promise<Record<string, unknown>>;
  /** Stores these values (JSON-compatible), leaving other keys alone. */
  set(items: Record<string, unknown>): Promise<void>;
  /** Removes these keys. */
  remove(keys: string[]): Promise<void>;
  /** Changes made by anyone (this context or another one sharing the area). */
  onChanged: StorageChangedEvent;
}

/** One key's change, as browser.storage reports it. */
export interface StorageChange {
  oldValue?: unknown;
  newValue?: unknown;
}

/** The area's change event: the shape of browser.storage.local.onChanged. */
export interface StorageChangedEvent {
  addListener(listener: (changes: Record<string, StorageChange>) => void): void;
  removeListener(listener: (changes: Record<string, StorageChange>) => void): void;
}
