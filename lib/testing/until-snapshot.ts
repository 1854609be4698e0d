import type { TabSnapshot } from '../messaging/agent-messages';

/**
 * Test helper: resolves with the first value `read` finds in a tab session's snapshot, now or after one of the
 * session's change events (no polling on a clock: the session says when something changed).
 */
export function untilSnapshot<T>(
  session: { snapshot(): TabSnapshot; subscribe(listener: (snapshot: TabSnapshot) => void): () => void },
  read: (snapshot: TabSnapshot) => T | undefined,
): Promise<T> {
  const now = read(session.snapshot());
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = session.subscribe((snapshot) => {
      const found = read(snapshot);
      if (found === undefined) return;
      stop();
      resolve(found);
    });
  });
}
