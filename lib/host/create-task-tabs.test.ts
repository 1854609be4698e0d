import { describe, expect, it } from 'vitest';
import type { TaskTabLeft } from '../messaging/task-tabs';
import { createTaskTabs, MAX_TASK_TABS, TASK_TAB_REFUSALS } from './create-task-tabs';

const SHOP = 'https://shop.example';
const RECIPES = 'https://recipes.example';
const COURIER = 'https://courier.example';

/** A tab set of tab 1 over a router that names each tab's site from `sites`. */
function setup(sites: Record<number, string | undefined> = { 2: RECIPES, 3: COURIER }) {
  const left: TaskTabLeft[] = [];
  let changes = 0;
  const tabs = createTaskTabs({
    ownTabId: 1,
    siteOf: async (tabId) => sites[tabId],
    onChange: () => changes++,
    onLeft: (l) => left.push(l),
  });
  return { tabs, left, changes: () => changes };
}

describe('createTaskTabs', () => {
  it('holds only its own tab at first, and adds a tab under the site the router names for it', async () => {
    const { tabs, changes } = setup();
    expect(tabs.list()).toEqual([]);
    expect(tabs.spans()).toBe(false);
    expect(await tabs.add(2)).toBeUndefined();
    expect(tabs.list()).toEqual([{ tabId: 2, site: RECIPES }]);
    expect(tabs.spans()).toBe(true);
    expect(tabs.siteOf(2)).toBe(RECIPES);
    expect(changes()).toBe(1);
  });

  it('refuses its own tab, a tab twice, a tab whose site is not known, and more than the limit', async () => {
    const sites: Record<number, string> = {};
    for (let id = 2; id < 2 + MAX_TASK_TABS + 1; id++) sites[id] = `https://s${id}.example`;
    const { tabs } = setup({ ...sites, 99: undefined });
    expect(await tabs.add(1)).toBe(TASK_TAB_REFUSALS.own);
    expect(await tabs.add(99)).toBe(TASK_TAB_REFUSALS.unknown);
    expect(await tabs.add(2)).toBeUndefined();
    expect(await tabs.add(2)).toBe(TASK_TAB_REFUSALS.already);
    for (let id = 3; id < 2 + MAX_TASK_TABS; id++) expect(await tabs.add(id)).toBeUndefined();
    expect(await tabs.add(2 + MAX_TASK_TABS)).toBe(TASK_TAB_REFUSALS.full);
    expect(tabs.list()).toHaveLength(MAX_TASK_TABS);
  });

  it('adds a tab once when two adds race', async () => {
    const { tabs } = setup();
    expect(await Promise.all([tabs.add(2), tabs.add(2)])).toEqual([undefined, TASK_TAB_REFUSALS.already]);
    expect(tabs.list()).toEqual([{ tabId: 2, site: RECIPES }]);
  });

  it('a tab that moves to another site leaves, saying so; one that is loading (no site named) stays', async () => {
    const { tabs, left } = setup();
    await tabs.add(2);
    tabs.notice(2, undefined);
    tabs.notice(2, RECIPES);
    expect(tabs.list()).toHaveLength(1);
    tabs.notice(2, 'https://evil.example');
    expect(tabs.list()).toEqual([]);
    expect(left).toEqual([
      {
        tabId: 2,
        site: RECIPES,
        reason: 'moved',
        message:
          'recipes.example left the task: the tab moved to evil.example. Its tools are no longer offered, and nothing more runs there.',
      },
    ]);
  });

  it('a tab that closes or crashes leaves, and so does one the person removes', async () => {
    const { tabs, left } = setup();
    await tabs.add(2);
    await tabs.add(3);
    tabs.gone(2, 'crashed');
    tabs.remove(3);
    tabs.gone(3, 'closed');
    expect(tabs.list()).toEqual([]);
    expect(left.map((l) => [l.site, l.reason])).toEqual([
      [RECIPES, 'crashed'],
      [COURIER, 'removed'],
    ]);
    expect(left[0]?.message).toMatch(/^recipes\.example left the task: the tab’s page crashed/);
  });

  it('ends with the conversation, and adopts restored tabs except its own', async () => {
    const { tabs } = setup();
    await tabs.add(2);
    tabs.clear();
    expect(tabs.list()).toEqual([]);
    tabs.adopt([
      { tabId: 1, site: SHOP },
      { tabId: 3, site: COURIER },
    ]);
    expect(tabs.list()).toEqual([{ tabId: 3, site: COURIER }]);
  });
});
