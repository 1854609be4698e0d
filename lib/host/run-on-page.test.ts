import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { HostRouterClient } from './agent-host-deps';
import type { LiveCall } from './apply-live-calls';
import { runOnPage } from './run-on-page';

const pay: TabToolEntry = {
  name: 'pay_2',
  originalName: 'pay',
  origin: 'https://ads.example',
  frameId: 3,
  documentId: 'doc-7',
  description: 'Pay',
  inputSchema: { type: 'object' },
};
const call: ToolCall = { id: 'c1', name: 'pay_2', input: { amount: 5 } };

describe('runOnPage', () => {
  it('runs the call bound to the judged instance, shows its states, and takes the tools again after it', async () => {
    const events: string[] = [];
    const states: [string, LiveCall][] = [];
    const signal = new AbortController().signal;
    const bridge: Pick<HostRouterClient, 'callTool'> = {
      callTool: async (tabId, sent, options) => {
        events.push(`call ${tabId} ${sent.name}`);
        expect(sent).toBe(call);
        expect(options?.signal).toBe(signal);
        // The router runs only what the person saw: this frame's document, origin and tool, with these arguments.
        expect(options?.expect).toEqual({
          frameId: 3,
          documentId: 'doc-7',
          origin: 'https://ads.example',
          originalName: 'pay',
          input: { amount: 5 },
        });
        options?.onState?.({ state: 'awaiting-confirmation', prompt: 'Press Pay in the form.' });
        return { content: [{ type: 'text', text: 'paid' }] };
      },
    };
    const timeline = createCallTimeline();
    const record = timeline.start({ id: call.id, by: 'agent', tool: call.name, input: call.input });
    const output = await runOnPage(call, pay, signal, record, {
      tabId: 9,
      bridge,
      currentTools: async () => {
        events.push('current');
      },
      setLive: (callId, live) => {
        events.push(`live ${live.state}`);
        states.push([callId, live]);
      },
    });
    expect(output).toEqual({ content: [{ type: 'text', text: 'paid' }] });
    expect(events).toEqual(['live running', 'call 9 pay_2', 'live awaiting-confirmation', 'current']);
    expect(states).toEqual([
      ['c1', { state: 'running' }],
      ['c1', { state: 'awaiting-confirmation', prompt: 'Press Pay in the form.' }],
    ]);
    // The record reached the page: it is running, not waiting for the person.
    expect(timeline.entries()[0].state).toBe('running');
  });
});
