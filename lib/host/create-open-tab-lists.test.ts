import { describe, expect, it } from 'vitest';
import type { OpenTab } from '../messaging/task-tabs';
import type { TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import { createOpenTabLists } from './create-open-tab-lists';

/** The router as the host sees it: snapshots by tab, and a change told to subscribers. */
function routerSnapshots() {
  const snapshots = new Map<number, TabToolSnapshot>();
  const listeners = new Set<(tabId: number) => void>();
  return {
    getTools: async (tabId: number) => snapshots.get(tabId) ?? { tabId, tools: [], page: {} },
    subscribe(listener: (tabId: number) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The tab's page now shows `url` (the router heard its report). */
    navigate(tabId: number, url: string, title: string) {
      snapshots.set(tabId, { tabId, page: { url, title }, tools: [] });
      for (const listener of listeners) listener(tabId);
    },
  };
}

/** A panel's Port, and what its lists sent, each marked with the ask (`requestId`) it was sent for. */
function panelPort() {
  const events: { requestId: string; tabs: OpenTab[] }[] = [];
  const port = {};
  const to = (requestId: string) => (tabs: OpenTab[]) => void events.push({ requestId, tabs });
  return { port, events, to };
}

/** Lets every pending description finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createOpenTabLists', () => {
  it('answers a list at once and again, under the same request id, when the router names a listed tab’s site', async () => {
    const router = routerSnapshots();
    const { port, events, to } = panelPort();
    const lists = createOpenTabLists(router);

    await lists.list(port, { tabId: 1, tabIds: [2, 3] }, to('r1'));
    expect(events).toEqual([
      {
        requestId: 'r1',
        tabs: [
          { tabId: 2, toolCount: 0 },
          { tabId: 3, toolCount: 0 },
        ],
      },
    ]);

    router.navigate(2, 'https://recipes.test/pancakes', 'Pancakes');
    await settle();
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      requestId: 'r1',
      tabs: [{ tabId: 2, site: 'https://recipes.test', title: 'Pancakes' }, { tabId: 3 }],
    });
  });

  it('ignores tabs it did not list, and a burst of changes is one more answer', async () => {
    const router = routerSnapshots();
    const { port, events, to } = panelPort();
    const lists = createOpenTabLists(router);
    await lists.list(port, { tabId: 1, tabIds: [2] }, to('r1'));

    router.navigate(7, 'https://elsewhere.test/', 'Elsewhere');
    await settle();
    expect(events).toHaveLength(1);

    router.navigate(2, 'https://recipes.test/a', 'A');
    router.navigate(2, 'https://recipes.test/b', 'B');
    router.navigate(2, 'https://recipes.test/c', 'C');
    await settle();
    expect(events).toHaveLength(2);
    expect(events[1]!.tabs[0]!.title).toBe('C');
  });

  it('keeps only a panel’s newest list, and nothing once its Port closed', async () => {
    const router = routerSnapshots();
    const first = panelPort();
    const second = panelPort();
    const lists = createOpenTabLists(router);
    const r1 = first.to('r1');
    await lists.list(first.port, { tabId: 1, tabIds: [2] }, r1);
    await lists.list(first.port, { tabId: 1, tabIds: [3] }, first.to('r2'));
    // The replaced list's end does not end the newer one.
    lists.forget(first.port, r1);
    await lists.list(second.port, { tabId: 5, tabIds: [2] }, second.to('s1'));

    router.navigate(2, 'https://recipes.test/', 'Recipes');
    await settle();
    // The first panel's newest list does not name tab 2: only the second panel hears of it.
    expect(first.events.map((e) => e.requestId)).toEqual(['r1', 'r2']);
    expect(second.events.map((e) => e.requestId)).toEqual(['s1', 's1']);
    router.navigate(3, 'https://news.test/', 'News');
    await settle();
    expect(first.events.map((e) => e.requestId)).toEqual(['r1', 'r2', 'r2']);

    lists.forget(second.port);
    router.navigate(2, 'https://recipes.test/other', 'Other');
    await settle();
    expect(second.events).toHaveLength(2);
  });
});
