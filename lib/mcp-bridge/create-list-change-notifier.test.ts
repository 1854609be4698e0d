import { describe, expect, it, vi } from 'vitest';
import type { BridgeTool, NativeOutbound } from '../messaging/mcp-bridge-messages';
import { createListChangeNotifier } from './create-list-change-notifier';

const tool = (name: string): BridgeTool => ({ name, description: name, inputSchema: { type: 'object' } });

function setup(clients = true) {
  let tools = [tool('a')];
  const posted: NativeOutbound[] = [];
  const list = vi.fn(async () => tools);
  const notifier = createListChangeNotifier({ list, hasClients: () => clients, post: (m) => void posted.push(m), settleMs: 1 });
  return { notifier, posted, list, set: (next: BridgeTool[]) => (tools = next) };
}

describe('createListChangeNotifier', () => {
  it('tells clients once the list differs from the one they got, gathering changes that come together', async () => {
    const { notifier, posted, list, set } = setup();
    notifier.listed([tool('a')]);
    set([tool('a'), tool('b')]);
    notifier.mayHaveChanged();
    notifier.mayHaveChanged();
    await vi.waitFor(() => expect(posted).toEqual([{ type: 'tools/list-changed' }]));
    expect(list).toHaveBeenCalledTimes(1);
    notifier.mayHaveChanged();
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    expect(posted).toHaveLength(1);
  });

  it('says nothing before a client got a list, after the host went away, or with no client', async () => {
    const first = setup();
    first.notifier.mayHaveChanged();
    await vi.waitFor(() => expect(first.list).toHaveBeenCalledTimes(1));
    first.notifier.forget();
    first.set([tool('c')]);
    first.notifier.mayHaveChanged();
    await vi.waitFor(() => expect(first.list).toHaveBeenCalledTimes(2));
    expect(first.posted).toEqual([]);

    vi.useFakeTimers();
    try {
      const none = setup(false);
      none.notifier.listed([]);
      none.notifier.mayHaveChanged();
      await vi.advanceTimersByTimeAsync(5);
      expect(none.list).not.toHaveBeenCalled();
      expect(none.posted).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
