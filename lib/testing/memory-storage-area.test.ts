import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from './memory-storage-area';

describe('createMemoryStorageArea', () => {
  it('stores copies and returns only the keys that exist', async () => {
    const area = createMemoryStorageArea({ a: 1 });
    const value = { list: [1, 2] };
    await area.set({ b: value });
    value.list.push(3);
    expect(await area.get(['a', 'b', 'missing'])).toEqual({ a: 1, b: { list: [1, 2] } });
  });

  it('reports changes with old and new values, and stops after removeListener', async () => {
    const area = createMemoryStorageArea({ a: 1 });
    const seen: unknown[] = [];
    const listener = (changes: unknown) => seen.push(changes);
    area.onChanged.addListener(listener);
    await area.set({ a: 2 });
    await area.remove(['a', 'never-there']);
    area.onChanged.removeListener(listener);
    await area.set({ a: 3 });
    expect(seen).toEqual([{ a: { oldValue: 1, newValue: 2 } }, { a: { oldValue: 2 } }]);
  });
});
