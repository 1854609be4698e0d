import { describe, expect, it } from 'vitest';
import { restoreTaskTabs } from './restore-task-tabs';

const RECIPES = 'https://recipes.example';
const COURIER = 'https://courier.example';
const NOTES = 'https://notes.example';

describe('restoreTaskTabs', () => {
  it('keeps only the tabs still open on the same sites, and drops the others with a note', async () => {
    const now: Record<number, string> = { 2: RECIPES, 3: 'https://stranger.example' };
    const { kept, dropped } = await restoreTaskTabs(
      [
        { tabId: 2, site: RECIPES },
        { tabId: 3, site: COURIER },
        { tabId: 4, site: NOTES },
      ],
      async (tabId) => now[tabId],
    );
    expect(kept).toEqual([{ tabId: 2, site: RECIPES }]);
    expect(dropped.map((d) => [d.tabId, d.reason])).toEqual([
      [3, 'moved'],
      [4, 'closed'],
    ]);
    expect(dropped[1]?.message).toMatch(/^notes\.example left the task: the tab was closed/);
  });

  it('treats what storage holds as untrusted: anything that is not a tab id and a site is dropped', async () => {
    const siteOf = async () => RECIPES;
    expect(await restoreTaskTabs(undefined, siteOf)).toEqual({ kept: [], dropped: [] });
    expect(await restoreTaskTabs([{ tabId: '2', site: RECIPES }, { tabId: 2.5, site: RECIPES }, null, { tabId: 2 }], siteOf)).toEqual({
      kept: [],
      dropped: [],
    });
  });

  it('drops a tab whose site cannot be read', async () => {
    const { kept, dropped } = await restoreTaskTabs([{ tabId: 2, site: RECIPES }], () => Promise.reject(new Error('gone')));
    expect(kept).toEqual([]);
    expect(dropped[0]?.reason).toBe('closed');
  });
});
