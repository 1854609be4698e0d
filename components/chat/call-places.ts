import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import { type CallRecord, MAX_CALL_TITLE } from '../../lib/messaging/call-record';
import { cleanPageText } from '../../lib/page-data/clean-page-text';
import { hostOf } from '../../lib/shared/host-of';

/**
 * Where each call of a task across tabs ran, in words for its card: "recipes.localhost · Pancakes (tab 12)": the
 * site it ran on and the title of the page it ran in, both as the host recorded them when the call started
 * (CallRecord.tab), never the tab's title now: a tab that moved on to another page since must not rename its
 * earlier calls. The title is page text, cleaned and capped again here. Calls of a conversation of one tab carry no
 * tab, and get no words.
 *
 * @param timeline The tab's calls.
 * @param tab The followed tab, whose calls say "this tab".
 */
export function callPlaces(timeline: readonly CallRecord[], tab: Pick<TabSnapshot, 'tabId'> | undefined): ReadonlyMap<string, string> {
  const places = new Map<string, string>();
  for (const call of timeline) {
    if (!call.tab) continue;
    const title = cleanPageText(call.tab.title, { oneLine: true, max: MAX_CALL_TITLE });
    const which = call.tab.tabId === tab?.tabId ? 'this tab' : `tab ${call.tab.tabId}`;
    places.set(call.id, `${hostOf(call.tab.site)} · ${title ? `${title} (${which})` : which}`);
  }
  return places;
}
