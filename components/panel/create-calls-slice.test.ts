import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../lib/messaging/call-record';
import { createCallsSlice } from './create-calls-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';

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
    expect(client.sent).toEqual([
      { type: 'panel/run-tool', tabId: 1, requestId: 'req-1', name: 'search', input: { q: 'x' } },
      { type: 'panel/run-tool', tabId: 1, requestId: 'req-2', name: 'search', input: { q: 'y' } },
    ]);
  });
});
