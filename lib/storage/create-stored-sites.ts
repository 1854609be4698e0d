import type { WebAgent } from '../agent/types';
import type { StorageArea } from '../messaging/storage-area';
import { normaliseOrigin } from './parse-origin';
import type { SiteProfile } from './settings';
import { SettingsValidationError } from './settings-validation-error';
import { siteAgentForUrl } from './site-agent-for-url';
import { type SiteProfileInput, validateSiteProfile } from './validate-settings';

/** The site profiles, as the settings store keeps them (settings-store.ts). */
export interface StoredSites {
  /**
   * Adds a profile, or replaces the one whose origin is `replacing` (the origin may change). An origin that
   * already has a profile (other than the one replaced) is refused.
   */
  saveSiteProfile(input: SiteProfileInput, replacing?: string): Promise<SiteProfile>;
  removeSiteProfile(origin: string): Promise<void>;
  /** The page agent for a page URL, from the site profiles. */
  siteAgentFor(pageUrl: string | undefined): Promise<WebAgent | undefined>;
}

/** Creates the site profiles over `local` under `key`; `serial` runs each read-modify-write after the store's others. */
export function createStoredSites(local: StorageArea, key: string, serial: <T>(task: () => Promise<T>) => Promise<T>): StoredSites {
  const readSites = async (): Promise<SiteProfile[]> => sanitizeSites((await local.get([key]))[key]);
  return {
    saveSiteProfile(input, replacing) {
      return serial(async () => {
        const result = validateSiteProfile(input);
        if (!result.ok) throw new SettingsValidationError(result.errors);
        const profile = result.value;
        const sites = await readSites();
        const previous = replacing === undefined ? undefined : normaliseOrigin(replacing);
        if (profile.origin !== previous && sites.some((s) => s.origin === profile.origin)) {
          throw new SettingsValidationError({
            origin: `${profile.origin} already has its own settings: edit those instead.`,
          });
        }
        const index = previous === undefined ? -1 : sites.findIndex((s) => s.origin === previous);
        if (index >= 0) sites[index] = profile;
        else sites.push(profile);
        await local.set({ [key]: sites });
        return profile;
      });
    },
    removeSiteProfile(origin) {
      return serial(async () => {
        const target = normaliseOrigin(origin);
        const sites = await readSites();
        await local.set({ [key]: sites.filter((s) => s.origin !== target) });
      });
    },
    async siteAgentFor(pageUrl) {
      return siteAgentForUrl(await readSites(), pageUrl);
    },
  };
}

/** The stored profiles, each valid, one per origin. */
export function sanitizeSites(value: unknown): SiteProfile[] {
  if (!Array.isArray(value)) return [];
  const sites: SiteProfile[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object') continue;
    const result = validateSiteProfile(item as SiteProfileInput);
    if (result.ok && !sites.some((s) => s.origin === result.value.origin)) sites.push(result.value);
  }
  return sites;
}
