/**
 * The settings as the agent host reads them: read once, then kept until the storage says a setting changed. A
 * tool call reads the policy and grants, and a page its site agent, many times a minute; none of those reads
 * reach storage (on Chrome every read is a message through the service worker). The host's own writes (the Agent
 * control, "Always on this site") drop the copy at once, so the next call never judges by the old one.
 */
import type { Settings } from '../storage/settings';
import { siteAgentForUrl } from '../storage/site-agent-for-url';
import type { StorageChangedEvent } from '../messaging/storage-area';
import type { HostSettingsPort } from './agent-host-deps';

/** The settings store methods this wraps (lib/storage/settings-store.ts fits). */
interface CachedSettingsSource {
  read(): Promise<Settings>;
  setMode: HostSettingsPort['setMode'];
  grantTool: HostSettingsPort['grantTool'];
}

/** Wraps the store; `changes` is the storage area's change event the settings live in. */
export function cacheHostSettings(
  source: CachedSettingsSource,
  changes: StorageChangedEvent,
): HostSettingsPort & { read(): Promise<Settings> } {
  let cached: Promise<Settings> | undefined;
  const forget = () => {
    cached = undefined;
  };
  changes.addListener((changed) => {
    if (Object.keys(changed).some((key) => key.startsWith('settings.'))) forget();
  });
  const read = () => {
    if (!cached) {
      const reading = source.read();
      cached = reading;
      // A failed read is not kept: the next one asks the storage again.
      reading.catch(() => {
        if (cached === reading) forget();
      });
    }
    return cached;
  };
  return {
    read,
    async setMode(mode) {
      forget();
      await source.setMode(mode);
      forget();
    },
    async grantTool(origin, tool, caller) {
      forget();
      await source.grantTool(origin, tool, caller);
      forget();
    },
    siteAgentFor: async (pageUrl) => siteAgentForUrl((await read()).sites, pageUrl),
  };
}
