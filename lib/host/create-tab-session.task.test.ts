/**
 * A conversation whose task spans tabs (issue 37; docs/security.md, "Tasks across tabs"): the tabs the person
 * added, their tools pooled under site-qualified names, each call run in its own tab, the boundary per call with
 * "Allow for this task", tabs that leave, and the tab set saved with the conversation. A bridge of several tabs
 * whose pages change as real tabs' do.
 */
import { describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentRunRequest, AgentStreamPart, PageContext, ToolCall, ToolDescriptor, ToolOutput } from '../agent/types';
import type { StorageArea } from '../messaging/storage-area';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { runLocalAgent } from '../local-agent/run-local-agent';
import { createConversationStore } from '../storage/conversations';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createScriptedProvider } from '../testing/scripted-provider';
import { untilSnapshot } from '../testing/until-snapshot';
import type { HostRouterClient } from './agent-host-deps';
import { createTabSession } from './create-tab-session';

const SHOP = 'https://shop.example';
const RECIPES = 'https://recipes.example';
const COURIER = 'https://courier.example';
const readOnly = { readOnlyHint: true };
const entry = (origin: string, name: string, annotations?: ToolDescriptor['annotations']): TabToolEntry => ({
  name,
  originalName: name,
  origin,
  frameId: 0,
  description: `${name} here`,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});
const TOOLS: Record<string, TabToolEntry[]> = {
  [SHOP]: [entry(SHOP, 'add_to_basket', readOnly)],
  [RECIPES]: [entry(RECIPES, 'get_ingredients', readOnly)],
  [COURIER]: [entry(COURIER, 'track', readOnly)],
};

/** A model that runs each step's call (chosen from the step's tools), then answers. */
function scriptedModel(steps: ((req: AgentRunRequest) => ToolCall | undefined)[], seen: string[][] = []) {
  const adapter: AgentAdapter = {
    id: 'scripted',
    label: 'Scripted',
    async *run(req: AgentRunRequest): AsyncGenerator<AgentStreamPart> {
      for (const [i, step] of steps.entries()) {
        if (req.signal.aborted) break;
        seen.push(req.tools.map((t) => t.name));
        const call = step(req);
        if (!call) break;
        yield { type: 'message-start', messageId: `m${i}` };
        yield { type: 'tool-call', messageId: `m${i}`, id: call.id, name: call.name, input: call.input };
        const output: ToolOutput = await req.callTool(call);
        yield output.isError
          ? { type: 'tool-error', id: call.id, error: output.content[0]?.type === 'text' ? output.content[0].text : '' }
          : { type: 'tool-result', id: call.id, output };
      }
      yield { type: 'finish', reason: req.signal.aborted ? 'aborted' : 'stop' };
    },
  };
  return { adapter, seen };
}
const callOf =
  (id: string, name: string, input: Record<string, unknown> = {}) =>
  (): ToolCall => ({ id, name, input });

/** Tabs 1 (the shop, the conversation's own), 2 (recipes) and 3 (the courier), over one bridge. */
function setup(adapter: AgentAdapter, local: StorageArea = createMemoryStorageArea(), sites: Record<number, string> = {}) {
  const tabs = new Map<number, { page: PageContext; tools: TabToolEntry[] }>();
  const open = (tabId: number, site: string) => tabs.set(tabId, { page: { url: `${site}/`, title: site }, tools: TOOLS[site] ?? [] });
  for (const [id, site] of Object.entries({ 1: SHOP, 2: RECIPES, 3: COURIER, ...sites })) open(Number(id), site);
  const ran: [number, string, unknown][] = [];
  let reached: () => void = () => {};
  /** Resolves once a call that runs until stopped has reached its page. */
  const waiting = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const listeners = new Set<(tabId: number) => void>();
  const bridge: HostRouterClient = {
    getTools: async (tabId) => {
      const tab = tabs.get(tabId);
      if (!tab) throw new Error('No tab with that id.');
      return { tabId, tools: tab.tools, page: tab.page };
    },
    callTool: async (tabId, call, options) => {
      ran.push([tabId, call.name, call.input]);
      // A call that runs until it is stopped: the page hears the cancel.
      if (call.input && (call.input as { wait?: boolean }).wait) {
        reached();
        await new Promise((resolve) => options?.signal?.addEventListener('abort', resolve));
        return { content: [{ type: 'text', text: 'Error [cancelled]: stopped.' }], isError: true };
      }
      return { content: [{ type: 'text', text: `${call.name} ran in tab ${tabId}` }] };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const navigate = (tabId: number, site: string) => {
    open(tabId, site);
    for (const listener of [...listeners]) listener(tabId);
  };
  const settings = { ...createSettingsStore({ local }), siteAgentFor: async () => undefined };
  let next = 0;
  const session = createTabSession({
    tabId: 1,
    url: `${SHOP}/`,
    store: createConversationStore(local, { session: 's' }),
    bridge,
    settings,
    adapter: async () => adapter,
    generateId: () => `host-id-${++next}`,
    saveDelayMs: 1,
    emitDelayMs: 1,
  });
  const asked = () => untilSnapshot(session, (s) => s.confirmations[0]);
  return { session, ran, navigate, asked, local, tabs, waiting };
}

describe('createTabSession, a task across tabs', () => {
  it('with its own tab alone, offers the tab’s tools as before, under their own names', async () => {
    const { adapter, seen } = scriptedModel([() => undefined]);
    const { session } = setup(adapter);
    await session.send('Hello', SHOP);
    expect(seen).toEqual([['add_to_basket']]);
    expect(session.snapshot().taskTabs).toBeUndefined();
  });

  it('offers every added tab’s tools under site-qualified names, runs a call in the tab it was listed under, and records the tab and site', async () => {
    const { adapter, seen } = scriptedModel([callOf('c1', 'recipes_example__get_ingredients', { dish: 'pancakes' }), () => undefined]);
    const { session, ran, asked } = setup(adapter);
    expect(await session.addTaskTab(2)).toBeUndefined();
    expect(session.snapshot().taskTabs).toEqual([{ tabId: 2, site: RECIPES }]);
    const sent = session.send('What goes into pancakes?', SHOP);
    // The message was typed on the shop: its data going to the recipes site asks first, read-only tool or not.
    const question = await asked();
    session.confirm(question.id, 'allow-once');
    await sent;
    expect(seen[0]).toEqual(['shop_example__add_to_basket', 'recipes_example__get_ingredients']);
    expect(ran).toEqual([[2, 'get_ingredients', { dish: 'pancakes' }]]);
    const record = session.timeline()[0];
    expect(record).toMatchObject({ tool: 'recipes_example__get_ingredients', tab: { tabId: 2, site: RECIPES }, state: 'done' });
    expect(session.snapshot().sites).toEqual([SHOP, RECIPES]);
  });

  it('records the title of the page a call ran in as it was then (page text, cleaned and capped): the tab moving on changes nothing', async () => {
    const { adapter } = scriptedModel([callOf('c1', 'recipes_example__get_ingredients', { dish: 'pancakes' }), () => undefined]);
    const { session, asked, tabs, navigate } = setup(adapter);
    tabs.get(2)!.page.title = `Pancakes\u200B\n${'y'.repeat(5_000)}`;
    await session.addTaskTab(2);
    const sent = session.send('What goes into pancakes?', SHOP);
    session.confirm((await asked()).id, 'allow-once');
    await sent;
    navigate(2, 'https://evil.example');
    tabs.get(2)!.page.title = 'Evil: sign in again';
    const title = session.timeline()[0]?.tab?.title ?? '';
    expect(title.startsWith('Pancakes y')).toBe(true);
    expect(title).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
    expect(session.timeline()[0]?.tab).toMatchObject({ tabId: 2, site: RECIPES });
  });

  it('asks before tab A’s data goes to tab B’s read-only tool, showing the arguments and both sites; "Allow for this task" covers A→B only', async () => {
    const { adapter } = scriptedModel([
      callOf('c1', 'recipes_example__get_ingredients', { dish: 'pancakes' }),
      callOf('c2', 'recipes_example__get_ingredients', { dish: 'waffles' }),
      callOf('c3', 'shop_example__add_to_basket', { item: 'flour' }),
      callOf('c4', 'courier_example__track', { order: '42' }),
      () => undefined,
    ]);
    const { session, ran, asked } = setup(adapter);
    await session.addTaskTab(2);
    await session.addTaskTab(3);
    const sent = session.send('Buy what pancakes need', SHOP);

    const first = await asked();
    expect(first).toMatchObject({
      callId: 'c1',
      toolName: 'get_ingredients',
      allowAlways: false,
      allowTask: [{ from: SHOP, to: RECIPES }],
      input: JSON.stringify({ dish: 'pancakes' }, null, 2),
    });
    expect(first.prompt).toBe(
      'Allow get_ingredients on recipes.example? This conversation holds what was read on shop.example; the arguments below would go to recipes.example.',
    );
    session.confirm(first.id, 'allow-task');
    // A second call of the same flow (shop → recipes) runs unasked: c2 needs no answer. The way back asks (c3).
    const back = await untilSnapshot(session, (s) => s.confirmations.find((c) => c.callId === 'c3'));
    expect(ran.map(([tab, name]) => [tab, name])).toEqual([
      [2, 'get_ingredients'],
      [2, 'get_ingredients'],
    ]);
    expect(back.allowTask).toEqual([{ from: RECIPES, to: SHOP }]);
    session.confirm(back.id, 'allow-once');
    // A third site: shop → courier and recipes → courier were never allowed.
    const third = await untilSnapshot(session, (s) => s.confirmations.find((c) => c.callId === 'c4'));
    expect(third.allowTask).toEqual([
      { from: SHOP, to: COURIER },
      { from: RECIPES, to: COURIER },
    ]);
    session.confirm(third.id, 'deny');
    await sent;
    expect(ran.map(([tab]) => tab)).toEqual([2, 2, 1]);
  });

  it('a new conversation asks again: "Allow for this task" and the added tabs end with the conversation', async () => {
    const { adapter } = scriptedModel([callOf('c1', 'recipes_example__get_ingredients'), () => undefined]);
    const { session, asked, ran } = setup(adapter);
    await session.addTaskTab(2);
    const sent = session.send('Pancakes?', SHOP);
    session.confirm((await asked()).id, 'allow-task');
    await sent;
    expect(ran).toHaveLength(1);
    await session.newChat();
    expect(session.snapshot().taskTabs).toBeUndefined();
    // The person adds the tab again in the new conversation: the crossing allowed in the old one asks again.
    await session.addTaskTab(2);
    const again = session.send('Pancakes again?', SHOP);
    const question = await asked();
    expect(question.allowTask).toEqual([{ from: SHOP, to: RECIPES }]);
    session.confirm(question.id, 'deny');
    await again;
    expect(ran).toHaveLength(1);
  });

  it('a tab that moves to another site leaves the task, saying so; its tools are gone from the next step and its old name runs nothing', async () => {
    let navigate: (tabId: number, site: string) => void = () => {};
    const { adapter, seen } = scriptedModel([
      () => {
        navigate(2, 'https://evil.example');
        return undefined;
      },
    ]);
    const harness = setup(adapter);
    navigate = harness.navigate;
    const { session } = harness;
    await session.addTaskTab(2);
    await session.send('Look around', SHOP);
    const left = await untilSnapshot(session, (s) => s.taskLeft?.[0]);
    expect(left).toMatchObject({ tabId: 2, site: RECIPES, reason: 'moved' });
    expect(left.message).toBe(
      'recipes.example left the task: the tab moved to evil.example. Its tools are no longer offered, and nothing more runs there.',
    );
    expect(session.snapshot().taskTabs).toBeUndefined();
    expect(seen).toEqual([['shop_example__add_to_basket', 'recipes_example__get_ingredients']]);
  });

  it('the search step (find_tools) of the on-device loop finds only the task’s tabs’ tools; another open tab’s stay unfound and never run (attack)', async () => {
    // The courier's tab (3) is open but not in the task. The page steers the model to search for, then call, its tool.
    const call = (name: string, args: object) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
    const provider = createScriptedProvider([
      call('find_tools', { query: 'track the parcel' }),
      call('courier_example__track', {}),
      'I cannot track parcels here.',
    ]);
    const adapter: AgentAdapter = { id: 'local', label: 'Local', run: (req) => runLocalAgent(provider, req, { maxTools: 1 }) };
    const { session, ran } = setup(adapter);
    await session.addTaskTab(2);
    await session.send('Where is my parcel?', SHOP);
    const parts = session.snapshot().messages.flatMap((m) => m.parts);
    const search = parts.find((p) => p.type === 'tool' && p.name === 'find_tools');
    expect(search).toMatchObject({ state: 'done' });
    expect(JSON.stringify(search)).not.toContain('courier');
    // The loop answers a name it was not given as unknown (the model is told the tools there are), and runs nothing.
    expect(parts.find((p) => p.type === 'tool' && p.name === 'courier_example__track')).toBeUndefined();
    expect(provider.requests[2].messages.at(-1)?.content).toContain('There is no tool named "courier_example__track"');
    expect(ran).toEqual([]);
    // The search ran in the loop: nothing reached a page, not even a call named find_tools.
    expect(session.timeline()).toEqual([]);
  });

  it('a call to a tab that left since its tools were listed runs nothing there', async () => {
    let leave: () => void = () => {};
    const { adapter } = scriptedModel([
      (req) => {
        const listed = req.tools[1]?.name ?? '';
        leave();
        return { id: 'c1', name: listed, input: {} };
      },
      () => undefined,
    ]);
    const harness = setup(adapter);
    leave = () => harness.session.taskTabGone(2, 'closed');
    await harness.session.addTaskTab(2);
    await harness.session.send('Pancakes?', SHOP);
    expect(harness.ran).toEqual([]);
    expect(harness.session.timeline()[0]).toMatchObject({ tool: 'recipes_example__get_ingredients', errorCode: 'tool_changed' });
    expect(harness.session.snapshot().taskLeft?.[0]?.reason).toBe('closed');
  });

  it('Stop stops a call running in another tab of the task', async () => {
    const { adapter } = scriptedModel([callOf('c1', 'recipes_example__get_ingredients', { wait: true }), () => undefined]);
    const { session, asked, waiting } = setup(adapter);
    await session.addTaskTab(2);
    const sent = session.send('Pancakes?', SHOP);
    session.confirm((await asked()).id, 'allow-once');
    await waiting;
    session.stop();
    await sent;
    expect(session.snapshot().running).toBe(false);
    expect(session.timeline()[0]).toMatchObject({ tab: { tabId: 2, site: RECIPES }, state: 'cancelled' });
  });

  it('is saved with its tab set, and comes back only for the tabs still open on the same sites', async () => {
    const local = createMemoryStorageArea();
    const first = setup(scriptedModel([() => undefined]).adapter, local);
    await first.session.addTaskTab(2);
    await first.session.addTaskTab(3);
    await first.session.flush();
    // The host restarted: tab 2 still shows the recipes, tab 3 shows another site now.
    const after = setup(scriptedModel([() => undefined]).adapter, local, { 3: 'https://elsewhere.example' });
    await after.session.ready;
    expect(after.session.snapshot().taskTabs).toEqual([{ tabId: 2, site: RECIPES }]);
    expect(after.session.snapshot().taskLeft?.map((l) => [l.tabId, l.reason])).toEqual([[3, 'moved']]);
  });

  it('refuses to add its own tab, or a tab whose site the router does not name', async () => {
    const { session, tabs } = setup(scriptedModel([() => undefined]).adapter);
    tabs.set(5, { page: {}, tools: [] });
    expect(await session.addTaskTab(1)).toMatch(/always part of its own conversation/);
    expect(await session.addTaskTab(5)).toMatch(/site is not known yet/);
    expect(await session.addTaskTab(6)).toMatch(/site is not known yet/);
    expect(session.snapshot().taskTabs).toBeUndefined();
  });
});
