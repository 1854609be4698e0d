import { describe, expect, it } from 'vitest';
import type { PanelIntent, TabSnapshot } from '../../lib/messaging/agent-messages';
import { createTabSlice } from './create-tab-slice';
import { createTaskSlice } from './create-task-slice';
import { fakeAgentClient } from './fake-agent-client';

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
  let n = 0;
  const task = createTaskSlice(
    client,
    tabs,
    async () => ids,
    () => `r${++n}`,
  );
  client.subscribe((event) => {
    tabs.receive(event);
    task.receive(event);
  });
  tabs.follow(1, 'https://shop.test/');
  const lists = () => client.sent.filter((i): i is Extract<PanelIntent, { type: 'panel/list-tabs' }> => i.type === 'panel/list-tabs');
  return { client, tabs, task, lists };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createTaskSlice', () => {
  it('asks about the open tabs but its own, and takes only the answer to its latest question for the tab it follows', async () => {
    const { client, task, lists } = setup();
    task.listTabs();
    task.listTabs();
    await settle();
    expect(lists().map((l) => [l.requestId, l.tabIds])).toEqual([
      ['r1', [2, 3]],
      ['r2', [2, 3]],
    ]);
    client.emit({ type: 'panel/open-tabs', tabId: 1, requestId: 'r1', tabs: [{ tabId: 2, toolCount: 9 }] });
    expect(task.openTabs.value).toBeUndefined();
    client.emit({ type: 'panel/open-tabs', tabId: 5, requestId: 'r2', tabs: [{ tabId: 2, toolCount: 9 }] });
    expect(task.openTabs.value).toBeUndefined();
    client.emit({ type: 'panel/open-tabs', tabId: 1, requestId: 'r2', tabs: [{ tabId: 2, toolCount: 1 }] });
    expect(task.openTabs.value).toEqual([{ tabId: 2, toolCount: 1 }]);
    task.clear();
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
