import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { CallRecord } from '../../lib/messaging/call-record';

/**
 * The origins a task across tabs read in its other tabs, not in the conversation's own: the sites the added tabs
 * joined under (and those that left since), and the frames of the calls that ran there. What the conversation holds
 * from them is the task's, asked about at each crossing; it does not mean that the own tab changed site.
 *
 * @param tab The followed tab's snapshot (its task's tabs and the notes of those that left).
 * @param timeline The tab's calls, each with the tab it ran on in a task across tabs.
 */
export function otherTabOrigins(
  tab: Pick<TabSnapshot, 'tabId' | 'taskTabs' | 'taskLeft'> | undefined,
  timeline: readonly CallRecord[],
): string[] {
  if (!tab) return [];
  const origins = new Set<string>();
  for (const t of [...(tab.taskTabs ?? []), ...(tab.taskLeft ?? [])]) origins.add(t.site);
  for (const call of timeline) {
    if (!call.tab || call.tab.tabId === tab.tabId) continue;
    origins.add(call.tab.site);
    if (call.origin) origins.add(call.origin);
  }
  return [...origins];
}
