import { describe, expect, it, vi } from 'vitest';
import { createWatchedTabs } from './create-watched-tabs';

const storeWith = (stored: Record<string, unknown>) => {
  const data = { ...stored };
  return {
    data,
    get: vi.fn(async (keys: readonly string[]) => Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]]))),
    set: vi.fn(async (items: Record<string, unknown>) => void Object.assign(data, items)),
  };
};

describe('createWatchedTabs', () => {
  it('reads the watched tabs from session storage once per service-worker life, not once per tab', async () => {
    const store = storeWith({ 'bridge:watched': [3, 5] });
    const watched = createWatchedTabs(store);
    expect(await watched.has(3)).toBe(true);
    expect(await watched.has(4)).toBe(false);
    expect(await watched.has(5)).toBe(true);
    expect(store.get).toHaveBeenCalledTimes(1);
  });

  it('keeps what it is told in storage, and writes only when something changed', async () => {
    const store = storeWith({});
    const watched = createWatchedTabs(store);
    await watched.remember(7, true);
    await watched.remember(7, true);
    await watched.remember(8, true);
    await watched.remember(7, false);
    expect(store.set).toHaveBeenCalledTimes(3);
    expect(store.data['bridge:watched']).toEqual([8]);
    // A service worker that restarted reads them back.
    expect(await createWatchedTabs(store).has(8)).toBe(true);
  });

  it('takes only tab ids from a record that holds anything else, and none from a store that fails', async () => {
    const odd = createWatchedTabs(storeWith({ 'bridge:watched': [1, 'two', 2.5, null, 4] }));
    expect([await odd.has(1), await odd.has(4), await odd.has(2.5)]).toEqual([true, true, false]);
    expect(await createWatchedTabs(storeWith({ 'bridge:watched': { 1: true } })).has(1)).toBe(false);
    const failing = createWatchedTabs({ get: () => Promise.reject(new Error('gone')), set: async () => {} });
    expect(await failing.has(1)).toBe(false);
  });
});
