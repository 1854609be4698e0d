import type { TaskTab, TaskTabLeft } from '../messaging/task-tabs';
import { taskTabLeft } from './task-tab-left';

/**
 * Which stored tabs of a task come back after a restart (docs/security.md, "Tasks across tabs"): only a tab the
 * router names now, on the very site it was added on. Every other one is dropped with a note: it closed, or shows
 * another site (a tab id the browser handed to another page after a restart included). What is stored is checked
 * as untrusted data: an entry that is not a tab id and a site is dropped silently.
 *
 * @param stored The tab set as read from storage.
 * @param siteOf The top-level site the router names for a tab now (undefined: the tab is gone or names none).
 * @returns The tabs kept, and a note for each dropped one.
 */
export async function restoreTaskTabs(
  stored: unknown,
  siteOf: (tabId: number) => Promise<string | undefined>,
): Promise<{ kept: TaskTab[]; dropped: TaskTabLeft[] }> {
  const kept: TaskTab[] = [];
  const dropped: TaskTabLeft[] = [];
  for (const tab of Array.isArray(stored) ? stored.filter(isTaskTab) : []) {
    const now = await siteOf(tab.tabId).catch(() => undefined);
    if (now === tab.site) kept.push({ tabId: tab.tabId, site: tab.site });
    else dropped.push(taskTabLeft(tab, now === undefined ? 'closed' : 'moved', now));
  }
  return { kept, dropped };
}

function isTaskTab(value: unknown): value is TaskTab {
  const v = value as TaskTab;
  return typeof v === 'object' && v !== null && Number.isInteger(v.tabId) && typeof v.site === 'string';
}
