/**
 * The tabs someone watches (the panel, a run, a test asked for their tools: lib/background/create-tab-registry.ts),
 * kept in memory and in one session-storage key, so that a tab update costs no read and a service worker that
 * restarted still knows them.
 */
import type { SessionStore } from './tool-router-ports';

/** The ids of the watched tabs. */
const WATCHED_KEY = 'bridge:watched';

/** The watched tabs. */
interface WatchedTabs {
  /** Whether anyone watches the tab; one storage read per service-worker life, not one per tab. */
  has(tabId: number): Promise<boolean>;
  /** Records that the tab is watched (`on`) or no longer is (it closed). */
  remember(tabId: number, on: boolean): Promise<void>;
}

/** Creates the record of watched tabs over session storage. */
export function createWatchedTabs(store: Pick<SessionStore, 'get' | 'set'>): WatchedTabs {
  let watched: Promise<Set<number>> | undefined;
  const watchedTabs = () => {
    watched ??= store
      .get([WATCHED_KEY])
      .then(
        (stored) =>
          new Set(Array.isArray(stored[WATCHED_KEY]) ? ((stored[WATCHED_KEY] as unknown[]).filter(Number.isInteger) as number[]) : []),
      )
      .catch(() => new Set<number>());
    return watched;
  };
  return {
    has: async (tabId) => (await watchedTabs()).has(tabId),
    async remember(tabId, on) {
      const set = await watchedTabs();
      if (set.has(tabId) === on) return;
      if (on) set.add(tabId);
      else set.delete(tabId);
      await store.set({ [WATCHED_KEY]: [...set] });
    },
  };
}
