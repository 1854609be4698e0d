import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { storageAreaAfter } from './storage-area-after';

describe('storageAreaAfter', () => {
  it('holds reads until the migration has written, so the first read sees the migrated value', async () => {
    const inner = createMemoryStorageArea();
    let finish!: () => void;
    const migration = new Promise<void>((resolve) => (finish = resolve)).then(() => inner.set({ 'settings.mode': 'cloud' }));
    const area = storageAreaAfter(inner, migration);
    const read = area.get(['settings.mode']);
    finish();
    expect(await read).toEqual({ 'settings.mode': 'cloud' });
  });

  it('a failed migration does not block the area for good', async () => {
    const area = storageAreaAfter(createMemoryStorageArea({ k: 1 }), Promise.reject(new Error('no')));
    expect(await area.get(['k'])).toEqual({ k: 1 });
  });
});
