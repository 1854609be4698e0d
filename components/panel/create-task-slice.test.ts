import { describe, expect, it } from 'vitest';
import type { PanelAsks, TabSnapshot } from '../../lib/messaging/agent-messages';
import { HOST_LEFT_UNANSWERED } from './create-exports-slice';
import { createTabSlice } from './create-tab-slice';
import { createTaskSlice } from './create-task-slice';
import { fakeAgentClient } from './fake-agent-client';
import { hostsOverPorts } from '../../lib/testing/hosts-over-ports';

const snapshot = (patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 1,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  ...patch,
});

function setup(ids: number[] = [1, 2, 3]) {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  const task = createTaskSlice(client, tabs, async () => ids);
  client.subscribe((event) => tabs.receive(event));
  tabs.follow(1, 'https://shop.test/');
  const lists = () => client.asks.filter((a) => a.type === 'panel/list-tabs');
  return { client, tabs, task, lists };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createTaskSlice', () => {
  it('asks about the open tabs but its own, cancels the list it replaces, and takes only its latest list’s updates', async () => {
    const { tabs, task, lists } = setup();
    task.listTabs();
    task.listTabs();
    await settle();
    expect(lists().map((l) => (l.request as PanelAsks['panel/list-tabs']['request']).tabIds)).toEqual([
      [2, 3],
      [2, 3],
    ]);
    const [first, second] = lists();
    expect(first.signal?.aborted).toBe(true);
    first.update([{ tabId: 2, toolCount: 9 }]);
    expect(task.openTabs.value).toBeUndefined();
    second.update([{ tabId: 2, toolCount: 1 }]);
    expect(task.openTabs.value).toEqual([{ tabId: 2, toolCount: 1 }]);
    second.update([{ tabId: 2, toolCount: 3 }]);
    expect(task.openTabs.value).toEqual([{ tabId: 2, toolCount: 3 }]);
    // The cancelled list's end says nothing to the person.
    await settle();
    expect(tabs.notice.value).toBeUndefined();
    task.clear();
    expect(second.signal?.aborted).toBe(true);
    expect(task.openTabs.value).toBeUndefined();
  });

  it('does not ask for a tab it no longer follows, and sends Add and Remove for the followed tab', async () => {
    const { tabs, task, lists, client } = setup();
    task.listTabs();
    tabs.follow(7, 'https://other.test/');
    await settle();
    expect(lists()).toEqual([]);
    task.addTaskTab(2);
    task.removeTaskTab(2);
    expect(client.sent).toEqual([
      { type: 'panel/add-task-tab', tabId: 7, addTabId: 2 },
      { type: 'panel/remove-task-tab', tabId: 7, removeTabId: 2 },
    ]);
  });

  it('shows the newest note of a tab that left until dismissed; a newer note shows again', () => {
    const { client, task } = setup();
    const left = (site: string) => ({ tabId: 2, site, reason: 'closed' as const, message: `${site} left the task.` });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ taskLeft: [left('a.test')] }) });
    expect(task.taskLeft.value?.site).toBe('a.test');
    task.dismissTaskLeft();
    expect(task.taskLeft.value).toBeUndefined();
    client.emit({ type: 'panel/tab', snapshot: snapshot({ taskLeft: [left('a.test')] }) });
    expect(task.taskLeft.value).toBeUndefined();
    client.emit({ type: 'panel/tab', snapshot: snapshot({ taskLeft: [left('a.test'), left('b.test')] }) });
    expect(task.taskLeft.value?.site).toBe('b.test');
  });
});

describe('createTaskSlice over the agent client', () => {
  it('a list pending when the agent host restarts fails with one clear notice; the next list reaches the new host', async () => {
    const { client, hosts, got } = hostsOverPorts();
    const tabs = createTabSlice(client);
    client.subscribe((event) => tabs.receive(event));
    const task = createTaskSlice(client, tabs, async () => [1, 2]);
    tabs.follow(1, 'https://shop.test/');
    client.send({ type: 'panel/bind', tabId: 1 });
    await expect.poll(() => client.connected()).toBe(true);
    task.listTabs();
    await expect.poll(() => got('panel/list-tabs')).toBe(true);

    hosts[0].restart(); // The host document restarted: the new one knows nothing of the list.
    await expect.poll(() => tabs.notice.value).toBe(HOST_LEFT_UNANSWERED);

    await expect.poll(() => client.connected()).toBe(true);
    task.listTabs();
    await expect.poll(() => got('panel/list-tabs')).toBe(true);
    expect(hosts).toHaveLength(2);
    client.close();
  });
});
