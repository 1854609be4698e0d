import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../agent/types';
import { createCallQueue } from './create-call-queue';
import { MAX_PENDING_CALLS_PER_TAB } from './page-limits';

const out = (text: string): ToolOutput => ({ content: [{ type: 'text', text }] });

describe('createCallQueue', () => {
  it('runs a tab’s calls one at a time, in order, and another tab’s beside them', async () => {
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const queue = createCallQueue(
      (tabId, call) =>
        new Promise((resolve) => {
          order.push(`start ${tabId} ${call.name}`);
          releases.push(() => resolve(out(call.name)));
        }),
    );
    const a = queue.callTool(1, { id: 'a', name: 'a', input: {} }, {});
    const b = queue.callTool(1, { id: 'b', name: 'b', input: {} }, {});
    const c = queue.callTool(2, { id: 'c', name: 'c', input: {} }, {});
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['start 1 a', 'start 2 c']);
    releases[0]();
    expect(await a).toEqual(out('a'));
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['start 1 a', 'start 2 c', 'start 1 b']);
    releases[1]();
    releases[2]();
    expect(await b).toEqual(out('b'));
    expect(await c).toEqual(out('c'));
  });

  it(`refuses the ${MAX_PENDING_CALLS_PER_TAB + 1}th waiting call of a tab at once, and a call that throws ends as frame_gone`, async () => {
    const queue = createCallQueue(async (_tabId, call) => {
      if (call.name === 'throws') throw new Error('boom');
      return new Promise<ToolOutput>(() => {});
    });
    for (let i = 0; i < MAX_PENDING_CALLS_PER_TAB; i++) void queue.callTool(1, { id: `${i}`, name: 'hang', input: {} }, {});
    expect((await queue.callTool(1, { id: 'x', name: 'one_more', input: {} }, {})).content[0]).toMatchObject({
      text: expect.stringMatching(/^Error \[too_many_calls\]: "one_more" was not run: this tab already has 16 tool calls/),
    });
    expect((await queue.callTool(2, { id: 'y', name: 'throws', input: {} }, {})).content[0]).toMatchObject({
      text: 'Error [frame_gone]: The call failed in the extension: Error: boom',
    });
    // A closed tab's count goes with it.
    queue.forgetTab(1);
    await expect(queue.callTool(1, { id: 'z', name: 'throws', input: {} }, {})).resolves.toMatchObject({ isError: true });
  });
});
