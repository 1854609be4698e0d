import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../lib/messaging/call-record';
import { createCallsSlice } from './create-calls-slice';
import { HOST_LEFT_UNANSWERED } from './create-exports-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';
import { hostsOverPorts } from '../../lib/testing/hosts-over-ports';

const record = { id: 'r1', tool: 'search', by: 'hand', state: 'done', input: {}, at: 0 } as unknown as CallRecord;

function setup() {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  let n = 0;
  const calls = createCallsSlice(client, tabs, () => `req-${++n}`);
  client.subscribe((event) => calls.receive(event));
  return { client, tabs, calls };
}

describe('createCallsSlice', () => {
  it('shows the followed tab’s timeline, and forgets it on clear', () => {
    const { client, tabs, calls } = setup();
    tabs.follow(1, undefined);
    client.emit({ type: 'panel/timeline', tabId: 2, entries: [record] });
    expect(calls.timeline.value).toEqual([]);
    client.emit({ type: 'panel/timeline', tabId: 1, entries: [record] });
    expect(calls.timeline.value).toEqual([record]);
    calls.clear();
    expect(calls.timeline.value).toEqual([]);
  });

  it('runs a tool by hand only on a followed tab, under a new request id each time', () => {
    const { client, tabs, calls } = setup();
    expect(calls.runTool('search', { q: 'x' })).toBeUndefined();
    tabs.follow(1, undefined);
    expect(calls.runTool('search', { q: 'x' })).toBe('req-1');
    expect(calls.runTool('search', { q: 'y' })).toBe('req-2');
    expect(client.asks.map((a) => [a.type, a.request])).toEqual([
      ['panel/run-tool', { tabId: 1, requestId: 'req-1', name: 'search', input: { q: 'x' } }],
      ['panel/run-tool', { tabId: 1, requestId: 'req-2', name: 'search', input: { q: 'y' } }],
    ]);
  });

  it('says what the host could not finish, for the tab it was asked on only', async () => {
    const { client, tabs, calls } = setup();
    tabs.follow(1, undefined);
    calls.runTool('search', {});
    client.asks[0].fail(new Error('Nothing here answers panel/run-tool.'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tabs.notice.value).toBe('Nothing here answers panel/run-tool.');
    tabs.dismissNotice();
    calls.runTool('search', {});
    tabs.follow(2, undefined);
    client.asks[1].fail(new Error('late'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tabs.notice.value).toBeUndefined();
  });
});

describe('createCallsSlice over the agent client', () => {
  it('a run by hand pending when the agent host restarts fails with one clear notice; the next one reaches the new host', async () => {
    const { client, hosts, got } = hostsOverPorts();
    const tabs = createTabSlice(client);
    client.subscribe((event) => tabs.receive(event));
    const calls = createCallsSlice(client, tabs, () => 'req-1');
    tabs.follow(1, undefined);
    client.send({ type: 'panel/bind', tabId: 1 });
    await expect.poll(() => client.connected()).toBe(true);
    calls.runTool('search', { q: 'x' });
    await expect.poll(() => got('panel/run-tool')).toBe(true);

    hosts[0].restart(); // The host document restarted: the new one knows nothing of the call.
    await expect.poll(() => tabs.notice.value).toBe(HOST_LEFT_UNANSWERED);

    await expect.poll(() => client.connected()).toBe(true);
    calls.runTool('search', { q: 'y' });
    await expect.poll(() => got('panel/run-tool')).toBe(true);
    expect(hosts).toHaveLength(2);
    client.close();
  });
});
