/**
 * What the person shares with desktop agents: the switch, the sites shared in every tab (both kept in privileged
 * storage), and the tabs shared alone while they show their site (in memory: a tab share ends with the host).
 */
import type { BridgeTabInfo } from '../messaging/mcp-bridge-messages';
import { webOriginOf } from '../shared/web-origin-of';
import type { StorageArea } from '../messaging/storage-area';

/** Where the person's choices are kept (the extension's privileged storage; Firefox: its IndexedDB). */
const ENABLED_KEY = 'mcpBridge.enabled';
const SITES_KEY = 'mcpBridge.sites';

/** A tab shared alone, while it shows `site`. */
interface TabShare {
  tabId: number;
  site: string;
}

/** The person's choices, read once from storage. */
export interface SharingChoices {
  /** Reads the kept choices (once); later calls wait for that first read. */
  load(): Promise<void>;
  /** Keeps the switch and the sites. */
  save(): Promise<void>;
  enabled(): boolean;
  setEnabled(enabled: boolean): void;
  sites(): string[];
  tabShares(): TabShare[];
  /** Whether `site`, shown in `tabId`, is shared: as a site, or as that tab alone. */
  isShared(tabId: number, site: string): boolean;
  /** Forgets the tab shares whose tab no longer shows their site (`open`: the tabs now, by id). */
  keepShowingTabs(open: ReadonlyMap<number, BridgeTabInfo>): void;
  shareSite(site: string): void;
  shareTab(tabId: number, site: string): void;
  /** Stops sharing a site, and every tab shared alone on it. */
  stopSite(site: string): void;
  /** Stops sharing a tab alone: the site it was shared on, if it was. */
  stopTab(tabId: number): string | undefined;
}

/** Creates the choices over the privileged storage area. */
export function createSharingChoices(storage: Pick<StorageArea, 'get' | 'set'>): SharingChoices {
  let enabled = false;
  let sites: string[] = [];
  let tabShares: TabShare[] = [];
  let loaded: Promise<void> | undefined;

  return {
    load() {
      loaded ??= storage
        .get([ENABLED_KEY, SITES_KEY])
        .then((stored) => {
          enabled = stored[ENABLED_KEY] === true;
          sites = Array.isArray(stored[SITES_KEY]) ? stored[SITES_KEY].filter((s): s is string => webOriginOf(s as string) === s) : [];
        })
        .catch(() => undefined);
      return loaded;
    },
    save: () => storage.set({ [ENABLED_KEY]: enabled, [SITES_KEY]: sites }).catch(() => undefined),
    enabled: () => enabled,
    setEnabled(value) {
      enabled = value;
    },
    sites: () => sites,
    tabShares: () => tabShares,
    isShared: (tabId, site) => sites.includes(site) || tabShares.some((t) => t.tabId === tabId && t.site === site),
    keepShowingTabs(open) {
      tabShares = tabShares.filter((t) => webOriginOf(open.get(t.tabId)?.url) === t.site);
    },
    shareSite(site) {
      if (!sites.includes(site)) sites = [...sites, site];
    },
    shareTab(tabId, site) {
      if (!tabShares.some((t) => t.tabId === tabId && t.site === site)) tabShares = [...tabShares, { tabId, site }];
    },
    stopSite(site) {
      sites = sites.filter((s) => s !== site);
      tabShares = tabShares.filter((t) => t.site !== site);
    },
    stopTab(tabId) {
      const site = tabShares.find((t) => t.tabId === tabId)?.site;
      tabShares = tabShares.filter((t) => t.tabId !== tabId);
      return site;
    },
  };
}
