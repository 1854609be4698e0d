import { describe, expect, it } from 'vitest';
import type { CloudProvider } from '../storage/settings';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { cacheSavedKeys } from './cache-saved-keys';

describe('cacheSavedKeys', () => {
  it('gives every provider’s saved key, reads once, and reads again only after a key or setting changed', async () => {
    const area = createMemoryStorageArea();
    const saved: Partial<Record<CloudProvider, string>> = { openai: 'sk-openai-1', anthropic: 'sk-ant-1' };
    let reads = 0;
    const keys = cacheSavedKeys(async (provider) => {
      reads++;
      return saved[provider];
    }, area.onChanged);
    expect(await keys()).toEqual(['sk-openai-1', 'sk-ant-1']);
    expect(await keys()).toEqual(['sk-openai-1', 'sk-ant-1']);
    expect(reads).toBe(3);
    // A conversation saved: no key changed, nothing is read again.
    await area.set({ 'conversation:1': { messages: [] } });
    await keys();
    expect(reads).toBe(3);
    saved.openai = 'sk-openai-2';
    await area.set({ 'secret.apiKey.openai': 'sk-openai-2' });
    expect(await keys()).toEqual(['sk-openai-2', 'sk-ant-1']);
    expect(reads).toBe(6);
  });

  it('does not keep a failed read', async () => {
    const area = createMemoryStorageArea();
    let fail = true;
    const keys = cacheSavedKeys(async () => {
      if (fail) throw new Error('storage unavailable');
      return 'sk-1';
    }, area.onChanged);
    await expect(keys()).rejects.toThrow('storage unavailable');
    fail = false;
    expect(await keys()).toEqual(['sk-1', 'sk-1', 'sk-1']);
  });
});
