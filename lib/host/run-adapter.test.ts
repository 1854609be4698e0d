import { describe, expect, it } from 'vitest';
import type { AgentRunState } from '../agent/reduce-stream-part';
import type { AgentAdapter, AgentMessage, AgentRunRequest, AgentStreamPart, ToolDescriptor } from '../agent/types';
import { runAdapter } from './run-adapter';

const user: AgentMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'find socks' }] };
const search: ToolDescriptor = { name: 'search', description: 'Search', inputSchema: { type: 'object' } };

/** An adapter that yields the parts its script builds from the request. */
function adapter(script: (req: AgentRunRequest) => AsyncGenerator<AgentStreamPart>): AgentAdapter {
  return { id: 'scripted', label: 'Scripted', run: script };
}

function inputs(overrides: Partial<Parameters<typeof runAdapter>[0]> = {}) {
  const seen: { state: AgentRunState; settled: string | undefined }[] = [];
  return {
    seen,
    inputs: {
      conversation: [user],
      adapter: async () => adapter(async function* () {}),
      signal: new AbortController().signal,
      graceMs: 20,
      tools: () => [search],
      callTool: async () => ({ content: [{ type: 'text' as const, text: 'ok' }] }),
      agent: undefined,
      page: () => undefined,
      secretPathsFor: () => [],
      onPart: (state: AgentRunState, settled: string | undefined) => seen.push({ state, settled }),
      ...overrides,
    },
  };
}

describe('runAdapter', () => {
  it('folds every part the adapter yields, telling the caller after each, and ends with its finish', async () => {
    const { inputs: run, seen } = inputs({
      adapter: async () =>
        adapter(async function* (req) {
          yield { type: 'message-start', messageId: 'm1' };
          yield { type: 'tool-call', messageId: 'm1', id: 'c1', name: 'search', input: {} };
          yield { type: 'tool-result', id: 'c1', output: await req.callTool({ id: 'c1', name: 'search', input: {} }) };
          yield { type: 'text-delta', messageId: 'm1', delta: 'Found them.' };
          yield { type: 'finish', reason: 'stop' };
        }),
    });
    const ended = await runAdapter(run);
    expect(ended).toMatchObject({ status: 'done', finishReason: 'stop' });
    expect(ended.messages.at(-1)?.parts).toMatchObject([
      { type: 'tool', id: 'c1', state: 'done' },
      { type: 'text', text: 'Found them.' },
    ]);
    expect(seen.map((s) => s.settled)).toEqual([undefined, undefined, 'c1', undefined, undefined]);
    expect(seen.at(-1)?.state).toBe(ended);
  });

  it('gives the adapter the conversation, the signal, the agent, page and site, and the tools fresh at every read', async () => {
    let tools = [search];
    const stop = new AbortController();
    const agent = { id: 'shop' };
    const reads: string[][] = [];
    const { inputs: run } = inputs({
      signal: stop.signal,
      tools: () => tools,
      agent,
      page: () => ({ url: 'https://shop.test/', title: 'Shop' }),
      site: 'https://shop.test',
      adapter: async () =>
        adapter(async function* (req) {
          expect(req.messages).toEqual([user]);
          expect(req.site).toBe('https://shop.test');
          expect(req.signal).toBe(stop.signal);
          expect(req.agent).toBe(agent);
          expect(req.page).toEqual({ url: 'https://shop.test/', title: 'Shop' });
          reads.push(req.tools.map((t) => t.name));
          tools = [];
          reads.push(req.tools.map((t) => t.name));
          yield { type: 'finish', reason: 'stop' };
        }),
    });
    await runAdapter(run);
    expect(reads).toEqual([['search'], []]);
  });

  it('ends with the reason when no adapter is available, without running one', async () => {
    const { inputs: run } = inputs({ adapter: async () => ({ unavailable: 'Add an API key in the options.' }) });
    expect(await runAdapter(run)).toMatchObject({ status: 'error', error: { message: 'Add an API key in the options.' } });
  });

  it('ends with the adapter’s failure when it throws, keeping what it said before', async () => {
    const { inputs: run } = inputs({
      adapter: async () =>
        adapter(async function* () {
          yield { type: 'message-start', messageId: 'm1' };
          yield { type: 'text-delta', messageId: 'm1', delta: 'Looking' };
          throw new Error('socket hang up');
        }),
    });
    const ended = await runAdapter(run);
    expect(ended).toMatchObject({ status: 'error', error: { message: 'The agent failed: socket hang up' } });
    expect(ended.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'Looking' }]);
  });

  it('takes an adapter that stops talking without saying how as finished, or as stopped after Stop', async () => {
    const silent = inputs({
      adapter: async () =>
        adapter(async function* () {
          yield { type: 'message-start', messageId: 'm1' };
        }),
    });
    expect(await runAdapter(silent.inputs)).toMatchObject({ status: 'done', finishReason: 'stop' });

    const stop = new AbortController();
    const stopped = inputs({
      signal: stop.signal,
      adapter: async () =>
        adapter(async function* () {
          yield { type: 'message-start', messageId: 'm1' };
          yield { type: 'tool-call', messageId: 'm1', id: 'c1', name: 'search', input: {} };
          stop.abort();
        }),
    });
    const ended = await runAdapter(stopped.inputs);
    expect(ended).toMatchObject({ status: 'done', finishReason: 'aborted' });
    expect(ended.messages.at(-1)?.parts[0]).toMatchObject({ id: 'c1', state: 'cancelled' });
  });

  it('ends a run whose adapter ignores Stop once the grace period is over', async () => {
    const stop = new AbortController();
    const { inputs: run } = inputs({
      signal: stop.signal,
      graceMs: 20,
      adapter: async () =>
        adapter(async function* () {
          yield { type: 'message-start', messageId: 'm1' };
          stop.abort();
          await new Promise(() => {});
        }),
    });
    expect(await runAdapter(run)).toMatchObject({ status: 'done', finishReason: 'aborted' });
  });
});
