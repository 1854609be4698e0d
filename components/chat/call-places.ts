import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { OpenTab } from '../../lib/messaging/task-tabs';
import { hostOf } from '../../lib/shared/host-of';

/**
 * Where each call of a task across tabs ran, in words for its card: "recipes.localhost · Pancakes (tab 12)" (the
 * site it ran on, and the tab by its title when the panel knows it). Calls of a conversation of one tab carry no
 * tab, and get no words.
 *
 * @param timeline The tab's calls (CallRecord.tab: the host's record of where each ran).
 * @param tab The followed tab, whose own title names its calls.
 * @param openTabs The open tabs as the host last described them, for the other tabs' titles.
 */
export function callPlaces(
  timeline: readonly CallRecord[],
  tab: Pick<TabSnapshot, 'tabId' | 'page'> | undefined,
  openTabs: readonly OpenTab[] | undefined,
): ReadonlyMap<string, string> {
  const places = new Map<string, string>();
  for (const call of timeline) {
    if (!call.tab) continue;
    const title = call.tab.tabId === tab?.tabId ? tab.page?.title : openTabs?.find((t) => t.tabId === call.tab?.tabId)?.title;
    const which = call.tab.tabId === tab?.tabId ? 'this tab' : `tab ${call.tab.tabId}`;
    places.set(call.id, `${hostOf(call.tab.site)} · ${title ? `${title} (${which})` : which}`);
  }
  return places;
}
