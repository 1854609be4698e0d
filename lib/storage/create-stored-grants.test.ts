import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createStoredGrants, sanitizeGrants } from './create-stored-grants';
import { IN_BROWSER_AGENT } from './grant-caller';

const serial = <T>(task: () => Promise<T>) => task();

describe('createStoredGrants', () => {
  it('grants a tool on an origin for one caller, once, under the normalised origin; revoking takes it back', async () => {
    const local = createMemoryStorageArea();
    const grants = createStoredGrants(local, 'g', serial);
    await grants.grantTool('HTTPS://Shop.test/', 'pay', IN_BROWSER_AGENT);
    await grants.grantTool('https://shop.test', 'pay', IN_BROWSER_AGENT);
    expect(((await local.get(['g'])).g as unknown[]).length).toBe(1);
    expect(await grants.isToolGranted('https://shop.test', 'pay', IN_BROWSER_AGENT)).toBe(true);
    expect(await grants.isToolGranted('https://shop.test', 'refund', IN_BROWSER_AGENT)).toBe(false);
    await grants.revokeGrant('https://SHOP.test', 'pay', IN_BROWSER_AGENT);
    expect(await grants.isToolGranted('https://shop.test', 'pay', IN_BROWSER_AGENT)).toBe(false);
  });

  it('refuses a grant with no origin, no tool or no known caller', async () => {
    const grants = createStoredGrants(createMemoryStorageArea(), 'g', serial);
    await expect(grants.grantTool('not an origin', 'pay', IN_BROWSER_AGENT)).rejects.toMatchObject({ name: 'SettingsValidationError' });
    await expect(grants.grantTool('https://shop.test', ' ', IN_BROWSER_AGENT)).rejects.toMatchObject({ name: 'SettingsValidationError' });
    await expect(grants.grantTool('https://shop.test', 'pay', { kind: 'who?' } as never)).rejects.toMatchObject({
      name: 'SettingsValidationError',
    });
  });

  it('reads stored grants field by field, dropping malformed ones', () => {
    expect(sanitizeGrants('x')).toEqual([]);
    expect(sanitizeGrants([{ origin: 'https://a.test', tool: 't' }, null, { origin: 1, tool: 't', grantedAt: 1 }])).toEqual([]);
  });
});
