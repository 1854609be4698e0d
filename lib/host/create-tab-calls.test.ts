import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../agent/types';
import { createCallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import type { HostRouterClient } from './agent-host-deps';
import { createLiveCalls } from './create-live-calls';
import { createTabCalls } from './create-tab-calls';
import { createTabTools } from './create-tab-tools';

const SHOP = 'https://shop.test';
const PAGE = { url: `${SHOP}/checkout`, title: 'Checkout' };
const pay: TabToolEntry = {
  name: 'pay',
  originalName: 'pay',
  origin: SHOP,
  frameId: 0,
  description: 'Pay',
  inputSchema: { type: 'object' },
};
const text = (output: ToolOutput) => (output.content[0]?.type === 'text' ? output.content[0].text : '');

/** A tab with the shop's pay (which asks: it is not marked read-only) and the calls made on it. */
async function setup() {
  const ran: string[] = [];
  const bridge: HostRouterClient = {
    getTools: async (tabId) => ({ tabId, tools: [pay], page: PAGE }),
    callTool: async (_tabId, call) => {
      ran.push(call.id);
      return { content: [{ type: 'text', text: 'paid' }] };
    },
    subscribe: () => () => {},
  };
  const settings = createSettingsStore({ local: createMemoryStorageArea() });
  const tools = createTabTools({ tabId: 1, bridge, settings, onChange: () => {} });
  await tools.refresh();
  let changes = 0;
  const live = createLiveCalls(() => changes++);
  let next = 0;
  const calls = createTabCalls({
    tabId: 1,
    bridge,
    settings,
    generateId: () => `id-${++next}`,
    tools,
    timeline: createCallTimeline(),
    guard: () => undefined,
    sites: () => [],
    read: () => {},
    currentSite: () => SHOP,
    live,
    emit: () => changes++,
  });
  /** Resolves once `count` questions are open. */
  const asked = async (count: number) => {
    for (let i = 0; i < 400 && calls.questions().length < count; i++) await new Promise((r) => setTimeout(r, 5));
    return calls.questions();
  };
  return { calls, live, ran, asked, changes: () => changes };
}
const signal = () => new AbortController().signal;

describe('createTabCalls', () => {
  it('shows an agent’s question on the call’s card, and answers whichever question an id names', async () => {
    const { calls, live, ran, asked, changes } = await setup();
    const agentCall = calls.callTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' });
    const clientCall = calls.runForClient({ id: 'c2', name: 'pay', input: {} }, { client: 'Claude Desktop', site: SHOP, signal: signal() });
    const [agents, clients] = await asked(2);
    expect([agents.callId, clients.callId]).toEqual(['c1', 'c2']);
    expect(clients.requester).toBe('Claude Desktop');
    // Only the agent's call has a card in the conversation to show its question on.
    expect(live.state('c1')).toMatchObject({ state: 'awaiting-confirmation' });
    expect(live.state('c2')).toBeUndefined();
    expect(changes()).toBeGreaterThan(0);
    calls.confirm(clients.id, 'allow-once');
    expect(await clientCall).toEqual({ output: { content: [{ type: 'text', text: 'paid' }] }, ran: true });
    calls.confirm(agents.id, 'allow-once');
    expect(text(await agentCall)).toBe('paid');
    expect(ran).toEqual(['c2', 'c1']);
  });

  it('ends the agent run’s questions as stopped, leaving the desktop agents’ open', async () => {
    const { calls, asked } = await setup();
    const agentCall = calls.callTool({ id: 'c1', name: 'pay', input: {} }, signal(), { by: 'agent' });
    const clientCall = calls.runForClient({ id: 'c2', name: 'pay', input: {} }, { client: 'Claude Desktop', site: SHOP, signal: signal() });
    await asked(2);
    calls.endRunQuestions();
    expect(text(await agentCall)).toBe('Error [cancelled]: stopped before the person answered.');
    expect(calls.questions().map((q) => q.callId)).toEqual(['c2']);
    calls.confirm(calls.questions()[0].id, 'deny');
    expect((await clientCall).ran).toBe(false);
  });

  it('cancels the person’s calls by hand on Stop, and lets their live state go', async () => {
    const { calls, live, ran, asked } = await setup();
    const byHand = calls.runByHand('pay', {}, 'req-1');
    const [question] = await asked(1);
    expect(question.id).not.toBe(question.callId);
    calls.stopHandCalls();
    await byHand;
    expect(ran).toEqual([]);
    expect(calls.questions()).toEqual([]);
    expect(live.state(question.callId)).toBeUndefined();
  });

  it('closes a desktop agent’s question as soon as its call ends (the client gave up), and the panel hears of it', async () => {
    const { calls, ran, asked, changes } = await setup();
    const giveUp = new AbortController();
    const clientCall = calls.runForClient(
      { id: 'c2', name: 'pay', input: {} },
      { client: 'Claude Desktop', site: SHOP, signal: giveUp.signal },
    );
    const [question] = await asked(1);
    const before = changes();
    giveUp.abort();
    expect(await clientCall).toMatchObject({ ran: false });
    expect(calls.questions()).toEqual([]);
    expect(changes()).toBeGreaterThan(before);
    // An Allow that arrives late runs nothing.
    calls.confirm(question.id, 'allow-once');
    expect(ran).toEqual([]);
  });
});
