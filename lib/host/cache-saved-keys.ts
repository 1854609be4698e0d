import { CLOUD_PROVIDERS, type CloudProvider } from '../storage/settings';
import type { StorageChangedEvent } from '../messaging/storage-area';
import { changesSettingsOrKeys } from '../storage/changes-settings-or-keys';

/**
 * The saved API keys as the host redacts them: every provider's, not only the chosen one's (a conversation may
 * predate a switch of provider, or a key left the settings incomplete). Read once, then kept until the storage says
 * a key or a setting changed: the host redacts every timeline update, and a tool call must read no storage
 * (lib/host/tool-call-cost.test.ts). A failed read is not kept.
 */
export function cacheSavedKeys(readApiKey: (provider: CloudProvider) => Promise<string | undefined>, changes: StorageChangedEvent) {
  let cached: Promise<string[]> | undefined;
  changes.addListener((changed) => {
    if (changesSettingsOrKeys(changed)) cached = undefined;
  });
  return (): Promise<string[]> => {
    if (!cached) {
      const reading = Promise.all(CLOUD_PROVIDERS.map(({ id }) => readApiKey(id))).then((keys) =>
        keys.filter((key): key is string => typeof key === 'string' && key !== ''),
      );
      cached = reading;
      reading.catch(() => {
        if (cached === reading) cached = undefined;
      });
    }
    return cached;
  };
}
