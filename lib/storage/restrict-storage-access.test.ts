import { describe, expect, it } from 'vitest';
import { restrictStorageAccess } from './restrict-storage-access';

describe('restrictStorageAccess', () => {
  it('sets every area that supports it to trusted contexts only', async () => {
    const calls: string[] = [];
    const area = (name: string) => ({
      setAccessLevel: async (options: { accessLevel: string }) => void calls.push(`${name}:${options.accessLevel}`),
    });
    expect(await restrictStorageAccess({ local: area('local'), session: area('session') })).toEqual([]);
    expect(calls.sort()).toEqual(['local:TRUSTED_CONTEXTS', 'session:TRUSTED_CONTEXTS']);
  });

  it('reports the areas the browser cannot restrict (no setAccessLevel, or it refused)', async () => {
    const refused = {
      setAccessLevel: async () => {
        throw new Error('Access level is not supported');
      },
    };
    expect(await restrictStorageAccess({ local: {}, session: refused, sync: undefined })).toEqual(['local', 'session', 'sync']);
  });
});
