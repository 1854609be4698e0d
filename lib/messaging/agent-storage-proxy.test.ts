import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { StorageChange } from './storage-area';
import { agentStorageChanged, createAgentStorageProxy, serveAgentStorage } from './agent-storage-proxy';

describe('agent storage proxy', () => {
  it('reads, writes and removes through the background, and hears forwarded changes', async () => {
    const local = createMemoryStorageArea({ a: 1 });
    const session = createMemoryStorageArea();
    const hostListeners = new Set<(m: unknown) => void>();
    // The background forwards its area's changes to the host, as lib/background/set-up-offscreen-host.ts does.
    local.onChanged.addListener((changes) => {
      const message = agentStorageChanged('local', changes);
      if (message) for (const l of hostListeners) l(message);
    });
    const send = async (request: unknown) => structuredClone(await serveAgentStorage(structuredClone(request), { local, session }));
    const proxy = createAgentStorageProxy('local', send, { addListener: (l) => void hostListeners.add(l) });
    const heard: Record<string, StorageChange>[] = [];
    proxy.onChanged.addListener((c) => heard.push(c));
    expect(await proxy.get(['a', 'missing'])).toEqual({ a: 1 });
    await proxy.set({ b: { deep: [1, 2] } });
    expect(await local.get(['b'])).toEqual({ b: { deep: [1, 2] } });
    await proxy.remove(['a']);
    expect(await local.get(['a'])).toEqual({});
    // The host's own conversation writes are not echoed back.
    await proxy.set({ 'conversation:x': { messages: [] }, conversations: [] });
    expect(heard).toEqual([{ b: { newValue: { deep: [1, 2] } } }, { a: { oldValue: 1 } }]);
  });

  it('ignores other messages and reports a failing area as an error, not a hang', async () => {
    const broken = { get: async () => Promise.reject(new Error('quota')), set: async () => {}, remove: async () => {} };
    expect(serveAgentStorage({ type: 'host/ping' }, { local: broken, session: broken })).toBeUndefined();
    const proxy = createAgentStorageProxy('session', (r) => serveAgentStorage(r, { local: broken, session: broken })!, {
      addListener: () => {},
    });
    await expect(proxy.get(['x'])).rejects.toThrow('Extension storage failed: quota');
    const silent = createAgentStorageProxy('local', async () => undefined, { addListener: () => {} });
    await expect(silent.get(['x'])).rejects.toThrow('did not answer');
  });
});
