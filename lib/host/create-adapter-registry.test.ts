import { describe, expect, it } from 'vitest';
import type { AdapterStatus, AgentAdapter, AgentStreamPart } from '../agent/types';
import { createAdapterRegistry } from './create-adapter-registry';

/** An adapter whose status the test moves, telling subscribers as a real one does. */
function adapterWithStatus(id: string) {
  const listeners = new Set<() => void>();
  let status: AdapterStatus = { state: 'ready' };
  const adapter: AgentAdapter & { set(next: AdapterStatus): void; listeners: Set<() => void> } = {
    id,
    label: id,
    listeners,
    status: () => status,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async *run() {},
    set: (next) => {
      status = next;
      for (const l of listeners) l();
    },
  };
  return adapter;
}

describe('createAdapterRegistry', () => {
  it('builds each adapter once, rebuilds one whose key changed, and forwards status changes', async () => {
    let key = 'a';
    const built: string[] = [];
    const local = adapterWithStatus('local');
    const registry = createAdapterRegistry([
      { kind: 'local', create: () => local },
      {
        kind: 'cloud',
        key: async () => key,
        create: () => {
          built.push(key);
          return adapterWithStatus(`cloud-${key}`);
        },
      },
    ]);
    let heard = 0;
    registry.subscribe(() => heard++);
    await Promise.all([registry.refresh(), registry.refresh()]);
    expect(registry.list().map((e) => e.adapter.id)).toEqual(['local', 'cloud-a']);
    await registry.refresh();
    expect(built).toEqual(['a']);
    const oldCloud = registry.get('cloud') as ReturnType<typeof adapterWithStatus>;
    key = 'b';
    await registry.refresh();
    expect(built).toEqual(['a', 'b']);
    expect(registry.get('cloud')!.id).toBe('cloud-b');
    // The replaced adapter is no longer listened to.
    expect(oldCloud.listeners.size).toBe(0);
    heard = 0;
    local.set({ state: 'downloading', progress: 0.5 });
    expect(heard).toBe(1);
  });

  it('an adapter that cannot be built becomes one that says why, and fails its runs with that reason', async () => {
    const registry = createAdapterRegistry([
      {
        kind: 'cloud',
        create: () => {
          throw new Error("Add your OpenAI API key in the extension's options page.");
        },
      },
    ]);
    await registry.refresh();
    const adapter = registry.get('cloud')!;
    expect(adapter.status!()).toEqual({ state: 'unavailable', reason: "Add your OpenAI API key in the extension's options page." });
    const parts: AgentStreamPart[] = [];
    for await (const part of adapter.run({
      messages: [],
      tools: [],
      signal: new AbortController().signal,
      callTool: async () => ({ content: [] }),
    }))
      parts.push(part);
    expect(parts).toEqual([{ type: 'error', error: "Add your OpenAI API key in the extension's options page." }]);
    expect(registry.get('local')).toBeUndefined();
  });
});
