/**
 * What the task chooser lists of the open tabs (docs/security.md, "Tasks across tabs"): for each tab id the panel
 * names, the site, title and tool count the router's snapshot gives for its top page now. Nothing a page says about
 * itself beyond its snapshot, and no URL the panel sent: a tab whose site the router does not name (loading, a
 * browser page, a tab that closed) is listed without a site, so the chooser shows it as not addable.
 */
import type { OpenTab } from '../messaging/task-tabs';
import { webOriginOf } from '../shared/web-origin-of';
import type { HostRouterClient } from './agent-host-deps';

/** Longest title listed: a page's title is page text, and the chooser has one line for it. */
const MAX_TITLE_CHARS = 120;

/**
 * Describes the tabs `tabIds`, in their order, each once.
 *
 * @param bridge The router's snapshots (reading one makes the router follow that tab, as adding it would).
 * @param tabIds The open tabs the panel asks about.
 */
export async function describeOpenTabs(bridge: Pick<HostRouterClient, 'getTools'>, tabIds: readonly number[]): Promise<OpenTab[]> {
  const ids = [...new Set(tabIds)];
  return Promise.all(ids.map((tabId) => describeTab(bridge, tabId)));
}

async function describeTab(bridge: Pick<HostRouterClient, 'getTools'>, tabId: number): Promise<OpenTab> {
  const snapshot = await bridge.getTools(tabId).catch(() => undefined);
  const site = webOriginOf(snapshot?.page?.url);
  const title = snapshot?.page?.title?.trim().slice(0, MAX_TITLE_CHARS);
  return { tabId, ...(site ? { site } : {}), ...(title ? { title } : {}), toolCount: site ? (snapshot?.tools.length ?? 0) : 0 };
}
