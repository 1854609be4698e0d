import { describe, expect, it } from 'vitest';
import { createDelegation } from './create-delegation';
import type { AgentRunRequest, AgentStreamPart, ToolCall, ToolOutput, WebAgent } from './types';

const ok = (t: string): ToolOutput => ({ content: [{ type: 'text', text: t }] });
const site: WebAgent = {
  id: 'https://shop.test',
  tools: ['search_products'],
  subAgents: [{ id: 'checkout', name: 'Checkout', tools: ['check_out'] }],
};

function request(agent: WebAgent, calls: ToolCall[]): AgentRunRequest {
  return {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Check out' }] }],
    tools: [],
    signal: new AbortController().signal,
    callTool: async (c) => {
      calls.push(c);
      return ok(`ok: ${c.name}`);
    },
    agent,
  };
}

describe('createDelegation (for loops that cannot yield from a tool call)', () => {
  it('runs delegate calls as nested runs, passes other calls through, and merges nested parts after their call', async () => {
    const calls: ToolCall[] = [];
    const req = request(site, calls);
    const nested: AgentStreamPart[] = [
      { type: 'message-start', messageId: 'm1' },
      { type: 'text-delta', messageId: 'm1', delta: 'Placed.' },
      { type: 'finish', reason: 'stop' },
    ];
    const delegation = createDelegation(req, async function* () {
      yield* nested;
    });
    expect(await delegation.callTool({ id: 'p1', name: 'search_products', input: {} })).toEqual(ok('ok: search_products'));

    // A source that announces the call, then waits for the delegate call to finish before its result.
    let output: ToolOutput | undefined;
    async function* source() {
      yield { kind: 'call', id: 'd1' };
      output = await delegation.callTool({ id: 'd1', name: 'delegate_to_checkout', input: { task: 'Check out' } });
      yield { kind: 'result', id: 'd1' };
    }
    const merged: unknown[] = [];
    for await (const part of delegation.merge(source(), (p: { kind: string; id: string }) => (p.kind === 'call' ? p.id : undefined)))
      merged.push(part);
    expect(merged).toEqual([
      { kind: 'call', id: 'd1' },
      ...nested.map((part) => ({ type: 'agent-part', id: 'd1', agentId: 'checkout', part })),
      { kind: 'result', id: 'd1' },
    ]);
    expect(output).toEqual(ok('Placed.'));
    expect(calls.map((c) => c.name)).toEqual(['search_products']);
  });
});
