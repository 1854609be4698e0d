/** A storage area that may support Chromium's access levels (Firefox's areas have no setAccessLevel). */
interface AccessLevelArea {
  setAccessLevel?: (options: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }) => Promise<void>;
}

/**
 * Closes the given storage areas to content scripts, where the browser can: Chromium's `setAccessLevel` with
 * TRUSTED_CONTEXTS, so only extension pages and the service worker can read or write them. Content scripts need
 * nothing from storage; a content script may run in a compromised renderer, and storage.local holds the API key,
 * the conversations, the grants and the confirmation policy.
 *
 * Chromium keeps the level in the extension's preferences across restarts and updates; calling this at the top of
 * every background start also covers the first start after an install or an update from a version that never set
 * it. Resolves to the areas that could not be restricted (none on Chromium; every area on Firefox, which has no such
 * setting and keeps its privileged data elsewhere).
 */
export async function restrictStorageAccess(areas: Record<string, AccessLevelArea | undefined>): Promise<string[]> {
  const open: string[] = [];
  await Promise.all(
    Object.entries(areas).map(async ([name, area]) => {
      if (typeof area?.setAccessLevel !== 'function') return void open.push(name);
      try {
        await area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
      } catch {
        open.push(name);
      }
    }),
  );
  return open.sort();
}
