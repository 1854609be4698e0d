import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createTabStateStore } from './create-tab-state-store';
import { readTabState, type StoredFrame, type TabState } from './tab-state';

const frame = (name: string): StoredFrame => ({
  url: 'https://shop.example/',
  origin: 'https://shop.example',
  page: { url: 'https://shop.example/', title: 'Shop' },
  tools: [{ name, description: 'x'.repeat(1_000), inputSchema: { type: 'object' } }],
});

/** A memory store that records the keys of every write. */
function recordedStore() {
  const store = createMemoryStorageArea();
  const sets: string[][] = [];
  const set = store.set.bind(store);
  store.set = (items) => {
    sets.push(Object.keys(items).sort());
    return set(items);
  };
  return { store, sets };
}

describe('createTabStateStore', () => {
  it('writes only the frames whose report changed, beside the tab record', async () => {
    const { store, sets } = recordedStore();
    const tabs = createTabStateStore(store);
    const state: TabState = { ...readTabState(undefined), frames: { 0: frame('a'), 3: frame('b') } };
    await tabs.write(7, state);
    expect(sets.at(-1)).toEqual(['bridge:tab:7', 'bridge:tab:7:frame:0', 'bridge:tab:7:frame:3']);
    state.frames[3] = frame('c');
    await tabs.write(7, state);
    expect(sets.at(-1)).toEqual(['bridge:tab:7', 'bridge:tab:7:frame:3']);
    // Nothing changed in the frames: the record alone.
    state.names.x = 'x';
    await tabs.write(7, state);
    expect(sets.at(-1)).toEqual(['bridge:tab:7']);
  });

  it('reads back what it wrote, after a restart; a frame that went is removed', async () => {
    const { store } = recordedStore();
    const state: TabState = { ...readTabState(undefined), frames: { 0: frame('a'), 3: frame('b') }, seen: { 0: 'https://shop.example' } };
    await createTabStateStore(store).write(7, state);
    const restarted = createTabStateStore(store);
    const read = await restarted.read(7);
    expect(read?.frames[3].tools[0].name).toBe('b');
    expect(read?.seen).toEqual({ 0: 'https://shop.example' });
    delete read!.frames[3];
    await restarted.write(7, read!);
    expect(await store.get(['bridge:tab:7:frame:3'])).toEqual({});
    expect(Object.keys((await createTabStateStore(store).read(7))!.frames)).toEqual(['0']);
  });

  it('reads a record written whole by an earlier version, and writes it out in parts', async () => {
    const { store, sets } = recordedStore();
    await store.set({ 'bridge:tab:7': { ...readTabState(undefined), frames: { 0: frame('old') } } });
    const tabs = createTabStateStore(store);
    const read = (await tabs.read(7))!;
    expect(read.frames[0].tools[0].name).toBe('old');
    await tabs.write(7, read);
    expect(sets.at(-1)).toEqual(['bridge:tab:7', 'bridge:tab:7:frame:0']);
    expect((await store.get(['bridge:tab:7']))['bridge:tab:7']).not.toHaveProperty('frames');
  });

  it('a tab removed leaves nothing, including frames only a stored record names', async () => {
    const { store } = recordedStore();
    await createTabStateStore(store).write(7, { ...readTabState(undefined), frames: { 0: frame('a'), 5: frame('b') } });
    await createTabStateStore(store).remove(7);
    expect(await store.get(['bridge:tab:7', 'bridge:tab:7:frame:0', 'bridge:tab:7:frame:5'])).toEqual({});
    expect(await createTabStateStore(store).read(7)).toBeUndefined();
  });
});
