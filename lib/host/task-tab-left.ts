import type { TaskLeaveReason, TaskTab, TaskTabLeft } from '../messaging/task-tabs';
import { hostOf } from '../shared/host-of';

/**
 * The note for a tab that left a task, as the panel shows it: "<site> left the task: …".
 *
 * @param tab The tab as it was in the task (the site it was added on).
 * @param reason Why it left.
 * @param now The site the tab shows now, for a tab that moved.
 */
export function taskTabLeft(tab: TaskTab, reason: TaskLeaveReason, now?: string): TaskTabLeft {
  const why: Record<TaskLeaveReason, string> = {
    moved: now ? `the tab moved to ${hostOf(now)}` : 'the tab moved to another site',
    closed: 'the tab was closed',
    crashed: 'the tab’s page crashed or could not be read',
    removed: 'you removed it',
  };
  return {
    tabId: tab.tabId,
    site: tab.site,
    reason,
    message: `${hostOf(tab.site)} left the task: ${why[reason]}. Its tools are no longer offered, and nothing more runs there.`,
  };
}
