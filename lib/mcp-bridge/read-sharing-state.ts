/**
 * What is shared now, and with whom, as the side panel and the options page show it (SharingState): the switch, the
 * native Port's state, the connected clients, the shared sites and tabs, and how the panel's own tab is shared.
 */
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { RouterClient } from '../messaging/router-client';
import type { NativeLinkState, SharingClient, SharingState } from '../messaging/mcp-bridge-messages';
import { cleanPageText } from '../page-data/clean-page-text';
import { webOriginOf } from '../shared/web-origin-of';
import type { StorageArea } from '../messaging/storage-area';
import { readPairingCode } from './pairing-code';
import type { SharingChoices } from './sharing-choices';

interface SharingStateDeps {
  choices: Pick<SharingChoices, 'load' | 'enabled' | 'sites' | 'tabShares'>;
  browser: Pick<BridgeBrowser, 'tabs'>;
  tools: Pick<RouterClient, 'getTools'>;
  clients: { list(): SharingClient[] };
  link(): NativeLinkState;
  storage: Pick<StorageArea, 'get'>;
}

/** The state now; `tabId` as a panel on that tab sees it. */
export async function readSharingState(deps: SharingStateDeps, tabId?: number): Promise<SharingState> {
  const { choices } = deps;
  await choices.load();
  const tabs = choices.enabled() ? await deps.browser.tabs().catch(() => []) : [];
  const open = new Map(tabs.map((t) => [t.tabId, t]));
  const sharedTabs = choices
    .tabShares()
    .filter((t) => webOriginOf(open.get(t.tabId)?.url) === t.site)
    .map((t) => {
      const title = cleanPageText(open.get(t.tabId)?.title ?? '', { oneLine: true, max: 80 });
      return { tabId: t.tabId, site: t.site, ...(title ? { title } : {}) };
    });
  let tab: SharingState['tab'];
  if (tabId !== undefined) {
    const site = webOriginOf(open.get(tabId)?.url) ?? webOriginOf((await deps.tools.getTools(tabId).catch(() => undefined))?.page?.url);
    const shared =
      site === undefined ? false : choices.sites().includes(site) ? 'site' : sharedTabs.some((t) => t.tabId === tabId) ? 'tab' : false;
    tab = { tabId, ...(site ? { site } : {}), shared };
  }
  const clientList = deps.clients.list();
  const paired = (await readPairingCode(deps.storage)) !== undefined;
  return {
    enabled: choices.enabled(),
    link: deps.link(),
    clients: clientList,
    sites: [...choices.sites()],
    tabs: sharedTabs,
    ...(tab ? { tab } : {}),
    paired,
  };
}
