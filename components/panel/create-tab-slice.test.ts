import { describe, expect, it } from 'vitest';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import { createTabSlice } from './create-tab-slice';
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

function setup() {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  client.subscribe((event) => tabs.receive(event));
  return { client, tabs };
}

describe('createTabSlice', () => {
  it('takes snapshots and notices of the followed tab only', () => {
    const { client, tabs } = setup();
    tabs.follow(1, 'https://shop.test/');
    client.emit({ type: 'panel/tab', snapshot: snapshot({ tabId: 2 }) });
    client.emit({ type: 'panel/notice', tabId: 2, message: 'other tab' });
    expect(tabs.tab.value).toBeUndefined();
    expect(tabs.notice.value).toBeUndefined();
    client.emit({ type: 'panel/tab', snapshot: snapshot() });
    client.emit({ type: 'panel/notice', message: 'for every tab' });
    expect(tabs.tab.value?.tabId).toBe(1);
    expect(tabs.notice.value).toBe('for every tab');
    tabs.dismissNotice();
    expect(tabs.notice.value).toBeUndefined();
  });

  it('knows the host’s site only from a snapshot over the current connection', () => {
    const { client, tabs } = setup();
    tabs.follow(1, 'https://shop.test/');
    expect(tabs.hostSite.value).toBeUndefined();
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/mugs' } }) });
    expect(tabs.hostSite.value).toBe('https://shop.test');
    // The host went away: what it said before may be stale until it speaks again.
    client.setConnected(false);
    expect(tabs.connected.value).toBe(false);
    expect(tabs.hostSite.value).toBeUndefined();
    client.setConnected(true);
    expect(tabs.hostSite.value).toBeUndefined();
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/mugs' } }) });
    expect(tabs.hostSite.value).toBe('https://shop.test');
  });

  it('following another tab forgets the old one’s snapshot; a move keeps it and changes the address', () => {
    const { client, tabs } = setup();
    tabs.follow(1, 'https://shop.test/');
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/' } }) });
    tabs.moved('https://partner.example/');
    expect(tabs.tabUrl.value).toBe('https://partner.example/');
    expect(tabs.tab.value?.tabId).toBe(1);
    tabs.follow(2, undefined);
    expect(tabs.tabId.value).toBe(2);
    expect(tabs.tabUrl.value).toBeUndefined();
    expect(tabs.tab.value).toBeUndefined();
    expect(tabs.hostSite.value).toBeUndefined();
  });

  it('asks for a refresh only while it follows a tab', () => {
    const { client, tabs } = setup();
    tabs.refresh();
    expect(client.sent).toEqual([]);
    tabs.follow(4, undefined);
    tabs.refresh();
    expect(client.sent).toEqual([{ type: 'panel/refresh', tabId: 4 }]);
  });
});
