import { describe, expect, it } from 'vitest';
import type { PageContext } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TaskTab } from '../messaging/task-tabs';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostRouterClient } from './agent-host-deps';
import { createLiveCalls } from './create-live-calls';
import { createTask } from './create-task';
import { createTaskFlows } from './create-task-flows';

const RECIPES = 'https://recipes.example';
const COURIER = 'https://courier.example';

/** The task of tab 1, over a bridge whose tabs show `pages`; `saved` collects what would be stored. */
function setup(pages: Record<number, PageContext>) {
  const listeners = new Set<(tabId: number) => void>();
  const watched: number[] = [];
  const crashed = new Set<number>();
  const bridge: HostRouterClient = {
    getTools: async (tabId) => {
      watched.push(tabId);
      // The router's word on a renderer that crashed: no page, no tools.
      if (crashed.has(tabId)) return { tabId, tools: [], page: {}, crashed: true };
      const page = pages[tabId];
      if (!page) throw new Error('No tab with that id.');
      return { tabId, tools: [], page };
    },
    callTool: async () => ({ content: [] }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const saved: TaskTab[][] = [];
  const flows = createTaskFlows();
  const task = createTask({
    tabId: 1,
    bridge,
    settings: { ...createSettingsStore({ local: createMemoryStorageArea() }), siteAgentFor: async () => undefined },
    generateId: () => 'id',
    timeline: createCallTimeline(),
    live: createLiveCalls(() => {}),
    sites: () => [],
    read: () => {},
    flows,
    guardOf: () => undefined,
    saveTabs: (tabs) => saved.push(tabs),
    emit: () => {},
  });
  const navigate = async (tabId: number, site: string) => {
    pages[tabId] = { url: `${site}/` };
    for (const listener of [...listeners]) listener(tabId);
    // The view looks at the change it was told of; let it finish.
    await task.member(tabId)?.tools.current();
  };
  const crash = async (tabId: number) => {
    crashed.add(tabId);
    for (const listener of [...listeners]) listener(tabId);
    await task.member(tabId)?.tools.current();
  };
  const startLoading = async (tabId: number) => {
    pages[tabId] = {};
    for (const listener of [...listeners]) listener(tabId);
    await task.member(tabId)?.tools.current();
  };
  return { task, saved, flows, navigate, crash, startLoading, watched };
}

describe('createTask', () => {
  it('follows each added tab with a view of its own, and saves the tab set with every change', async () => {
    const { task, saved, watched } = setup({ 2: { url: `${RECIPES}/soup` } });
    await task.tabs.add(2);
    expect(task.member(2)?.tab).toEqual({ tabId: 2, site: RECIPES });
    await task.member(2)?.tools.current();
    expect(task.member(2)?.site()).toBe(RECIPES);
    expect(watched).toContain(2);
    task.tabs.remove(2);
    expect(task.member(2)).toBeUndefined();
    expect(saved).toEqual([[{ tabId: 2, site: RECIPES }], []]);
  });

  it('lets go of a tab that reaches another site, with the note', async () => {
    const { task, navigate } = setup({ 2: { url: `${RECIPES}/` } });
    await task.tabs.add(2);
    await task.member(2)?.tools.current();
    await navigate(2, COURIER);
    expect(task.member(2)).toBeUndefined();
    expect(task.left().map((l) => [l.tabId, l.reason])).toEqual([[2, 'moved']]);
  });

  it('lets go of a tab whose page crashed, with the note, but keeps one whose page is loading', async () => {
    const { task, saved, crash, startLoading } = setup({ 2: { url: `${RECIPES}/` }, 3: { url: `${COURIER}/` } });
    await task.tabs.add(2);
    await task.tabs.add(3);
    await task.member(3)?.tools.current();
    await startLoading(3);
    expect(task.member(3)).toBeDefined();
    await task.member(2)?.tools.current();
    await crash(2);
    expect(task.member(2)).toBeUndefined();
    expect(task.left()).toEqual([
      expect.objectContaining({
        tabId: 2,
        site: RECIPES,
        reason: 'crashed',
        message: expect.stringContaining('recipes.example left the task: the tab’s page crashed'),
      }),
    ]);
    expect(saved.at(-1)).toEqual([{ tabId: 3, site: COURIER }]);
  });

  it('restores only the stored tabs still on their sites, and New chat forgets the tabs, the notes and the allowed crossings', async () => {
    const { task, flows } = setup({ 2: { url: `${RECIPES}/` }, 3: { url: 'https://other.example/' } });
    await task.restore([
      { tabId: 2, site: RECIPES },
      { tabId: 3, site: COURIER },
    ]);
    expect(task.tabs.list()).toEqual([{ tabId: 2, site: RECIPES }]);
    expect(task.left().map((l) => l.tabId)).toEqual([3]);
    flows.allow([{ from: RECIPES, to: COURIER }]);
    task.clear();
    expect(task.tabs.list()).toEqual([]);
    expect(task.left()).toEqual([]);
    expect(flows.allows(RECIPES, COURIER)).toBe(false);
  });
});
