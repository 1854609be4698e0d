import { describe, expect, it } from 'vitest';
import type { ToolCall, ToolOutput } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { CallOrigin } from './call-page-tool';
import { runCallByHand } from './run-call-by-hand';

const login: TabToolEntry = {
  name: 'log_in',
  originalName: 'log_in',
  origin: 'https://shop.test',
  frameId: 2,
  description: 'Log in',
  inputSchema: { type: 'object', properties: { password: { type: 'string', format: 'password' } }, required: ['password'] },
};

function setup() {
  const timeline = createCallTimeline();
  const handRuns = new Set<AbortController>();
  const seen = { calls: [] as [ToolCall, CallOrigin, number][], settled: [] as string[] };
  const deps = {
    tools: { offered: (name: string) => (name === login.name ? login : undefined) },
    timeline,
    handRuns,
    callTool: async (call: ToolCall, signal: AbortSignal, from: CallOrigin): Promise<ToolOutput> => {
      seen.calls.push([call, from, handRuns.size]);
      expect([...handRuns].map((c) => c.signal)).toEqual([signal]);
      return { content: [{ type: 'text', text: 'welcome' }] };
    },
    settled: (callId: string) => seen.settled.push(callId),
  };
  return { deps, seen, timeline, handRuns };
}

describe('runCallByHand', () => {
  it('runs an offered tool with valid arguments as the person’s call, which Stop can reach while it runs', async () => {
    const { deps, seen, handRuns } = setup();
    await runCallByHand({ id: 'h1', name: 'log_in', input: { password: 'hunter2' } }, 'req-1', deps);
    expect(seen.calls).toEqual([[{ id: 'h1', name: 'log_in', input: { password: 'hunter2' } }, { by: 'person', requestId: 'req-1' }, 1]]);
    expect(handRuns.size).toBe(0);
    expect(seen.settled).toEqual(['h1']);
  });

  it('only records a refusal for a tool the page’s agent does not offer', async () => {
    const { deps, seen, timeline } = setup();
    await runCallByHand({ id: 'h1', name: 'pay', input: {} }, 'req-1', deps);
    expect(seen.calls).toEqual([]);
    expect(timeline.entries()).toMatchObject([
      { id: 'h1', by: 'person', tool: 'pay', requestId: 'req-1', state: 'error', errorCode: 'unknown_tool' },
    ]);
    expect(timeline.entries()[0].output).toBe('Error [unknown_tool]: no tool is named "pay" on this page now.');
  });

  it('only records a refusal for arguments the schema refuses, with the tool’s place and secret paths', async () => {
    const { deps, seen, timeline } = setup();
    await runCallByHand({ id: 'h1', name: 'log_in', input: { password: 42 } }, 'req-2', deps);
    expect(seen.calls).toEqual([]);
    expect(seen.settled).toEqual([]);
    expect(timeline.entries()[0]).toMatchObject({
      tool: 'log_in',
      origin: 'https://shop.test',
      frameId: 2,
      secretPaths: [['password']],
      state: 'error',
      errorCode: 'invalid_input',
    });
  });
});
