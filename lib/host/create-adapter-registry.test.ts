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

  it('current() reads the keys once, and again only after invalidate(): a run reads no storage while nothing changed', async () => {
    let key = 'a';
    let reads = 0;
    const registry = createAdapterRegistry([
      {
        kind: 'cloud',
        key: async () => {
          reads++;
          return key;
        },
        create: () => adapterWithStatus(`cloud-${key}`),
      },
    ]);
    await registry.current();
    await registry.current();
    await registry.current();
    expect(reads).toBe(1);
    expect(registry.get('cloud')!.id).toBe('cloud-a');
    // A change nobody said is not seen (it comes only with a storage change, which invalidates).
    key = 'b';
    await registry.current();
    expect(registry.get('cloud')!.id).toBe('cloud-a');
    registry.invalidate();
    await registry.current();
    expect(reads).toBe(2);
    expect(registry.get('cloud')!.id).toBe('cloud-b');
  });

  it('a change said while a pass reads is looked at again: current() never settles on what was read before it', async () => {
    let key = 'a';
    let release: () => void = () => undefined;
    let slow = false;
    let lastRead = '';
    const registry = createAdapterRegistry([
      {
        kind: 'cloud',
        key: async () => {
          const read = key;
          if (slow) await new Promise<void>((resolve) => (release = resolve));
          lastRead = read;
          return read;
        },
        create: () => adapterWithStatus(`cloud-${lastRead}`),
      },
    ]);
    await registry.current();
    registry.invalidate();
    slow = true;
    const first = registry.current();
    await Promise.resolve();
    // The pass has read 'a'; the setting changes and says so before the pass ends.
    key = 'b';
    registry.invalidate();
    slow = false;
    release();
    await first;
    expect(registry.get('cloud')!.id).toBe('cloud-b');
  });
});
