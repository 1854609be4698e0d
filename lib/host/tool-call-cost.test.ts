/**
 * What one tool call costs the agent host (issue 12, "push, don't pull"): one bridge round trip (router/call-tool
 * and its answer) and no storage read. The scenario and its stand-ins: lib/testing/measure-tool-call-cost.ts.
 */
import { describe, expect, it } from 'vitest';
import { measureToolCallCost } from '../testing/measure-tool-call-cost';

describe('a tool call through the host, the client and the router', () => {
  it('costs one bridge round trip and no storage read', async () => {
    const { spans, final } = await measureToolCallCost(3);
    expect(final.lastRun).toEqual({ reason: 'stop' });
    expect(final.messages.at(-1)?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done.' });
    // Each call: its one message to the background, no storage read (the policy, the grants and the site agent
    // come from the host's copy of the settings; the tools after the call came with the answer).
    expect(spans).toEqual(Array.from({ length: 3 }, () => ({ messages: ['router/call-tool'], reads: 0 })));
  });

  it('looks at the tab’s tools only through the view’s subscription: a call that changed nothing looks not once', async () => {
    const { looks, final } = await measureToolCallCost(3);
    expect(final.lastRun).toEqual({ reason: 'stop' });
    // The call reads the host's tool view (create-tab-tools.ts); the answer's snapshot is the one the host has.
    expect(looks).toEqual([0, 0, 0]);
  });
});
