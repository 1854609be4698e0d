/**
 * The background's storage: first closed to content scripts where the browser can (restrict-storage-access.ts),
 * then the two areas the agent host reads (directly on Firefox, through serveAgentStorage on Chrome). The privileged
 * area is where the key, conversations, grants, site profiles and policy live. Chrome: storage.local, closed to
 * content scripts. Firefox: content scripts can read and write storage.local and no setting stops them, so the
 * extension origin's IndexedDB instead (content scripts only ever get the page's), after moving anything an earlier
 * version left in storage.local, once.
 */
import type { StorageArea, StorageChangedEvent } from '../messaging/storage-area';
import { restrictStorageAccess } from '../storage/restrict-storage-access';

/** A browser storage area (the part used). */
export interface BrowserStorageArea {
  get(keys: string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
  onChanged: StorageChangedEvent;
  setAccessLevel?: (options: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }) => Promise<void>;
}

/** The slice of the browser this needs. */
interface StorageAreasBrowser {
  storage: { local: BrowserStorageArea; session: BrowserStorageArea; sync: Partial<BrowserStorageArea> };
}

/** The agent's two areas. */
interface BackgroundStorageAreas {
  local: StorageArea;
  session: StorageArea;
}

/**
 * Closes storage to content scripts (before anything is read or written), then gives the areas. `openPrivileged`:
 * Firefox's privileged area (open-firefox-privileged-area.ts, given storage.local to move from); without it,
 * storage.local. A function the entry passes only in Firefox's build, so Chrome's bundle carries no IndexedDB area.
 */
export function setUpStorageAreas(
  browser: StorageAreasBrowser,
  options: { openPrivileged?: (local: BrowserStorageArea) => StorageArea },
): BackgroundStorageAreas {
  const { local, session, sync } = browser.storage;
  void restrictStorageAccess({ local, session, sync });
  return { local: options.openPrivileged ? options.openPrivileged(local) : areaPort(local), session: areaPort(session) };
}

/** A browser storage area as the StorageArea port. */
function areaPort(area: BrowserStorageArea): StorageArea {
  return {
    get: (keys) => area.get([...keys]),
    set: (items) => area.set(items),
    remove: (keys) => area.remove([...keys]),
    onChanged: area.onChanged,
  };
}
