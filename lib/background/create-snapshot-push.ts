/**
 * When the router pushes a watched tab's snapshot to the agent host (lib/background/create-tab-registry.ts), so that
 * the host never asks: at most one push per tab every PUSH_COALESCE_MS, of the latest state (a page that floods
 * reports must not flood every extension page with snapshots). A call's own answer carries its snapshot at once, so
 * no call waits for this.
 */

/** Pushes of one tab's snapshot are coalesced over this long. */
const PUSH_COALESCE_MS = 30;

/** Schedules pushes. */
interface SnapshotPush {
  /** The tab changed: `push` runs for it once the window ends (once, however often this is called meanwhile). */
  schedule(tabId: number): void;
}

/** Creates the push schedule; `push` reads the tab's latest state itself when it runs. */
export function createSnapshotPush(push: (tabId: number) => void): SnapshotPush {
  const pushTimers = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    schedule(tabId) {
      if (pushTimers.has(tabId)) return;
      pushTimers.set(
        tabId,
        setTimeout(() => {
          pushTimers.delete(tabId);
          push(tabId);
        }, PUSH_COALESCE_MS),
      );
    },
  };
}
