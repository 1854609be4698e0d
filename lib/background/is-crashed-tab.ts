/**
 * Whether the browser says a tab's page is not loaded while the tab is neither discarded nor navigating: what a tab
 * whose renderer crashed looks like. Chromium gives no event for a crash (no tabs.onUpdated, no webNavigation); its
 * tab keeps its id and URL and reports `status: 'unloaded'`, while a reload, a navigation or a page going into the
 * back/forward cache reports `loading` by the time its old document's Port closes. Firefox has no `unloaded` status:
 * there this never says yes (docs/security.md § 8).
 */

/** The slice of tabs.Tab read. */
interface TabInfo {
  status?: string;
  discarded?: boolean;
}

/** Whether the tab, as the browser reports it now, shows a page that crashed (undefined: no such tab). */
export function isCrashedTab(tab: TabInfo | undefined): boolean {
  // A discarded tab was unloaded by the browser to save memory: its page comes back when the person returns.
  return tab !== undefined && tab.status === 'unloaded' && tab.discarded !== true;
}
