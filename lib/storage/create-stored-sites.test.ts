import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createStoredSites, sanitizeSites } from './create-stored-sites';

const serial = <T>(task: () => Promise<T>) => task();

describe('createStoredSites', () => {
  it('adds, edits under a new origin, and removes a profile; an origin already taken is refused', async () => {
    const sites = createStoredSites(createMemoryStorageArea(), 's', serial);
    await sites.saveSiteProfile({ origin: 'https://shop.test', instructions: 'Be brief.' });
    await sites.saveSiteProfile({ origin: 'https://blog.test', instructions: '' });
    await expect(sites.saveSiteProfile({ origin: 'https://blog.test', instructions: '' })).rejects.toMatchObject({
      errors: { origin: 'https://blog.test already has its own settings: edit those instead.' },
    });
    await sites.saveSiteProfile({ origin: 'https://shop2.test', instructions: 'Be brief.' }, 'https://SHOP.test');
    expect((await sites.siteAgentFor('https://shop2.test/cart'))?.instructions).toBe('Be brief.');
    expect(await sites.siteAgentFor('https://shop.test/cart')).toBeUndefined();
    await sites.removeSiteProfile('https://shop2.test/');
    expect(await sites.siteAgentFor('https://shop2.test/cart')).toBeUndefined();
  });

  it('reads stored profiles field by field: one per origin, malformed ones dropped', () => {
    expect(sanitizeSites({})).toEqual([]);
    const read = sanitizeSites([{ origin: 'https://a.test' }, { origin: 'https://a.test', instructions: 'again' }, 7, { origin: 'nope' }]);
    expect(read.map((s) => s.origin)).toEqual(['https://a.test']);
  });
});
