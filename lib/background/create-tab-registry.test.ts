import { describe, expect, it, vi } from 'vitest';
import type { BackgroundToHostMessage } from '../messaging/router-messages';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createTabRegistry } from './create-tab-registry';
import type { StoredFrame } from './tab-state';

const SHOP = 'https://shop.example';
const report = (origin: string, names: string[], title = 'Shop'): StoredFrame => ({
  url: `${origin}/`,
  origin,
  page: { url: `${origin}/`, title },
  tools: names.map((name) => ({ name, description: name, inputSchema: { type: 'object' as const } })),
});

function setup() {
  const store = createMemoryStorageArea();
  const badges: Record<number, string> = {};
  const pushed: BackgroundToHostMessage[] = [];
  const ports = {
    store,
    sendToFrame: async () => [],
    setBadge: (tabId: number, text: string) => {
      badges[tabId] = text;
    },
    notifyHost: (message: BackgroundToHostMessage) => void pushed.push(message),
    delegationWaitMs: 30,
  };
  const registry = createTabRegistry(ports);
  const told: number[] = [];
  registry.listeners.add((tabId) => told.push(tabId));
  return { registry, store, badges, pushed, told, ports };
}

const names = async (registry: ReturnType<typeof setup>['registry'], tabId = 1) =>
  (await registry.snapshot(tabId)).tools.map((t) => t.name);

describe('createTabRegistry', () => {
  it('a frame reported: its tools are in the snapshot, the badge counts them, subscribers hear it, the revision grows', async () => {
    const { registry, badges, told } = setup();
    await registry.frameReported(1, 0, report(SHOP, ['search', 'cart']));
    const first = await registry.snapshot(1);
    expect(first.tools.map((t) => t.name)).toEqual(['search', 'cart']);
    expect(badges[1]).toBe('2');
    expect(told).toEqual([1]);
    await registry.frameReported(1, 2, report(SHOP, ['help']));
    expect((await registry.snapshot(1)).revision).toBeGreaterThan(first.revision ?? 0);
    expect(badges[1]).toBe('3');
  });

  it("a document started in a frame takes that frame's tools; a frame gone takes its own; the top gone takes all", async () => {
    const { registry, badges } = setup();
    await registry.frameReported(1, 0, report(SHOP, ['search']));
    await registry.frameReported(1, 2, report(SHOP, ['help']));
    await registry.frameReported(1, 4, report(SHOP, ['chat']));
    await registry.documentStarted(1, 2, SHOP, false);
    expect(await names(registry)).toEqual(['search', 'chat']);
    await registry.frameGone(1, 4);
    expect(await names(registry)).toEqual(['search']);
    await registry.topFrameGone(1);
    expect(await names(registry)).toEqual([]);
    expect((await registry.load(1)).seen).toEqual({});
    expect(badges[1]).toBe('');
  });

  it("a new top document after the tab navigated drops the old page's frames, not the new page's that reported first", async () => {
    const { registry } = setup();
    await registry.frameReported(1, 0, report(SHOP, ['search']));
    await registry.frameReported(1, 2, report(SHOP, ['old']));
    registry.watch(1, await registry.load(1));
    // Reports are told apart from the navigation by their time (Date.now()).
    await new Promise((r) => setTimeout(r, 2));
    await registry.newTopDocument(1);
    await new Promise((r) => setTimeout(r, 2));
    await registry.frameReported(1, 5, report(SHOP, ['fresh']));
    await registry.documentStarted(1, 0, SHOP, false);
    expect(await names(registry)).toEqual(['fresh']);
    // Without a navigation first, a new top document takes only the top's own tools (a same-document navigation
    // looks the same from here).
    await registry.frameReported(1, 0, report(SHOP, ['search']));
    await registry.documentStarted(1, 0, SHOP, false);
    expect(await names(registry)).toEqual(['fresh']);
  });

  it("pushes a watched tab's latest snapshot to the host, coalesced; an unwatched tab's never", async () => {
    const { registry, pushed } = setup();
    await registry.frameReported(2, 0, report(SHOP, ['search']));
    registry.watch(1, await registry.load(1));
    for (const title of ['a', 'b', 'c']) await registry.frameReported(1, 0, report(SHOP, ['search'], title));
    await vi.waitFor(() => expect(pushed).toHaveLength(1));
    expect(pushed[0]).toMatchObject({ type: 'host/tools-changed', tabId: 1, snapshot: { page: { title: 'c' } } });
    expect(await registry.isWatched(1)).toBe(true);
    expect(await registry.isWatched(2)).toBe(false);
  });

  it('a service worker that restarted reads the tab back; a closed tab is forgotten', async () => {
    const { registry, store, ports } = setup();
    await registry.frameReported(1, 0, report(SHOP, ['search']));
    await vi.waitFor(async () => expect(Object.keys(await store.get(['bridge:tab:1']))).toHaveLength(1));
    const restarted = createTabRegistry(ports);
    expect(await names(restarted)).toEqual(['search']);
    await restarted.forget(1);
    expect(await store.get(['bridge:tab:1', 'bridge:tab:1:frame:0'])).toEqual({});
  });
});
