/**
 * What the side panel and the options page ask of the bridge (SharingChannel, from the extension's own pages only):
 * turning sharing on or off, sharing a site or a tab, stopping, and Firefox's pairing code. Stopping ends the calls
 * in flight on what is no longer shared; turning sharing off ends them all and closes the native host.
 */
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { ChannelHandlers } from '../messaging/channel';
import type { SharingChannel } from '../messaging/mcp-bridge-messages';
import { webOriginOf } from '../shared/web-origin-of';
import type { StorageArea } from '../messaging/storage-area';
import type { ClientRegistry } from './create-client-registry';
import { savePairingCode } from './pairing-code';
import type { SharingChoices } from './sharing-choices';

interface SharingIntentsDeps {
  choices: SharingChoices;
  browser: Pick<BridgeBrowser, 'open' | 'close' | 'tabs'>;
  storage: Pick<StorageArea, 'set'>;
  clients: Pick<ClientRegistry, 'stopCallsOn'>;
  /** The shared tools may have changed: clients hear once it settles. */
  listMayHaveChanged(): void;
  /** Every view hears the state. */
  broadcast(): Promise<void>;
}

/** The handlers of every sharing intent but `sharing/watch` (create-sharing-views.ts). */
export function createSharingIntents(deps: SharingIntentsDeps): Required<Omit<ChannelHandlers<SharingChannel, unknown>, 'sharing/watch'>> {
  const { choices } = deps;
  return {
    'sharing/set-enabled': async (message) => {
      await choices.load();
      if (typeof message.enabled !== 'boolean') return;
      choices.setEnabled(message.enabled);
      await choices.save();
      if (choices.enabled()) await deps.browser.open();
      else {
        deps.clients.stopCallsOn(() => true);
        await deps.browser.close();
      }
      await deps.broadcast();
    },
    'sharing/share': async (message) => {
      await choices.load();
      if (!choices.enabled() || !Number.isInteger(message.tabId) || (message.scope !== 'site' && message.scope !== 'tab')) return;
      const tab = (await deps.browser.tabs()).find((t) => t.tabId === message.tabId);
      const site = webOriginOf(tab?.url);
      // Only web pages can be shared: the browser's own pages and the extension's have no site.
      if (!site || !/^https?:/.test(site)) return;
      if (message.scope === 'site') {
        choices.shareSite(site);
        await choices.save();
      } else choices.shareTab(message.tabId, site);
      deps.listMayHaveChanged();
      await deps.broadcast();
    },
    'sharing/stop': async (message) => {
      await choices.load();
      if (typeof message.site === 'string') {
        const site = message.site;
        choices.stopSite(site);
        deps.clients.stopCallsOn((call) => call.site === site);
        await choices.save();
      }
      if (message.tabId !== undefined && Number.isInteger(message.tabId)) {
        const tabId = message.tabId;
        const site = choices.stopTab(tabId);
        deps.clients.stopCallsOn((call) => call.tabId === tabId && (site === undefined || !choices.sites().includes(call.site)));
      }
      deps.listMayHaveChanged();
      await deps.broadcast();
    },
    'sharing/pair': async (message) => {
      await choices.load();
      if (!(await savePairingCode(deps.storage, message.code))) return;
      // A host waiting with a challenge that failed has stopped: start it again with the new code.
      if (choices.enabled()) {
        await deps.browser.close();
        await deps.browser.open();
      }
      await deps.broadcast();
    },
  };
}
