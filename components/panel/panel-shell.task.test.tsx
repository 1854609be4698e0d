// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentMessage } from '../../lib/agent/types';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent, PanelIntent, PendingConfirmation, TabSnapshot } from '../../lib/messaging/agent-messages';
import type { CallRecord } from '../../lib/messaging/call-record';
import { createPanelStore } from './create-panel-store';
import { fakeAgentClient } from './fake-agent-client';
import { PanelShell } from './panel-shell';

/** The Port to the host: records the panel's intents, plays the host's events inside act(). */
function recordingClient() {
  const sent: PanelIntent[] = [];
  const listeners = new Set<(e: HostEvent) => void>();
  const asks = fakeAgentClient();
  const client: AgentClient & { sent: PanelIntent[]; asks: typeof asks.asks; emit(e: HostEvent): void } = {
    sent,
    asks: asks.asks,
    send: (intent) => void sent.push(intent),
    ask: asks.ask,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    connected: () => true,
    onConnectionChange: () => () => {},
    close: () => {},
    emit: (e) =>
      act(() => {
        for (const l of listeners) l(e);
      }),
  };
  return client;
}

const SHOP = 'https://shop.test';
const RECIPES = 'https://recipes.test';

const snapshot = (patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 1,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  page: { url: `${SHOP}/`, title: 'Shop' },
  ...patch,
});

function setup(tab: Partial<TabSnapshot> = {}, openTabIds = async () => [1, 2, 3, 4]) {
  const client = recordingClient();
  const store = createPanelStore(client, { openTabIds });
  store.bind(1, `${SHOP}/`);
  render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
  client.emit({ type: 'panel/tab', snapshot: snapshot(tab) });
  return { client, store, intents: (type: PanelIntent['type']) => client.sent.filter((i) => i.type === type) };
}

/** Opens the chooser and plays the host's answer to the list it asked for. */
async function openChooser(client: ReturnType<typeof recordingClient>) {
  fireEvent.click(screen.getByText(/^Tabs/));
  const asked = await waitFor(() => {
    const list = client.asks.filter((a) => a.type === 'panel/list-tabs').at(-1);
    if (!list) throw new Error('not asked yet');
    return list;
  });
  act(() =>
    asked.update([
      { tabId: 2, site: RECIPES, title: '<img src=x onerror="alert(1)"> Pancakes', toolCount: 2 },
      { tabId: 3, toolCount: 0 },
      { tabId: 4, site: 'https://courier.test', title: 'Courier', toolCount: 1 },
    ]),
  );
  return asked.request as { tabId: number; tabIds: number[] };
}

const toolMessage = (id: string, name: string, state: 'done' | 'awaiting-confirmation', prompt?: string): AgentMessage => ({
  id: `m-${id}`,
  role: 'assistant',
  parts: [{ type: 'tool', id, name, input: { items: ['flour'] }, state, ...(prompt ? { prompt } : {}) }],
});

afterEach(cleanup);

describe('PanelShell, a task across tabs', () => {
  it('the chooser asks the host about the other open tabs, lists their site, title (as text) and tools, and adds the one chosen', async () => {
    const { client, intents } = setup();
    const asked = await openChooser(client);
    // Its own tab is never among the choices: it is always in.
    expect(asked.tabIds).toEqual([2, 3, 4]);
    const others = screen.getByRole('list', { name: 'Other open tabs' });
    expect(within(others).getByText('<img src=x onerror="alert(1)"> Pancakes')).toBeTruthy();
    expect(others.querySelector('img')).toBeNull();
    expect(within(others).getByText('2 tools')).toBeTruthy();
    // A tab whose site the router names none of cannot be added, and says why.
    expect(within(others).getByText(/Cannot be added: its site is not known/)).toBeTruthy();
    expect(within(others).getAllByRole('button', { name: /^Add / })).toHaveLength(2);
    fireEvent.click(within(others).getByRole('button', { name: /^Add recipes\.test/ }));
    expect(intents('panel/add-task-tab')).toEqual([{ type: 'panel/add-task-tab', tabId: 1, addTabId: 2 }]);
  });

  it('lists the task’s tabs: its own, always in and not removable, and each added tab with Remove', async () => {
    const { client, intents } = setup({ taskTabs: [{ tabId: 2, site: RECIPES }] });
    expect(screen.getByText('Tabs in this task: 2')).toBeTruthy();
    await openChooser(client);
    const inTask = screen.getByRole('list', { name: 'Tabs in this task' });
    expect(within(inTask).getByText('This tab: always in')).toBeTruthy();
    expect(within(inTask).getAllByRole('button')).toHaveLength(1);
    fireEvent.click(within(inTask).getByRole('button', { name: 'Remove recipes.test from this task' }));
    expect(intents('panel/remove-task-tab')).toEqual([{ type: 'panel/remove-task-tab', tabId: 1, removeTabId: 2 }]);
    // An added tab is not offered again.
    expect(within(screen.getByRole('list', { name: 'Other open tabs' })).queryByText('recipes.test')).toBeNull();
  });

  it('"Allow for this task" shows with a crossing the host offers it for, names both sites, and answers allow-task', () => {
    const question: PendingConfirmation = {
      id: 'q1',
      callId: 'c1',
      toolName: 'shop_test__add_to_basket',
      origin: SHOP,
      allowAlways: false,
      allowTask: [{ from: RECIPES, to: SHOP }],
      prompt: 'Allow shop_test__add_to_basket on shop.test?',
      input: '{"items":["flour"]}',
    };
    const { client, intents } = setup({
      messages: [toolMessage('c1', 'shop_test__add_to_basket', 'awaiting-confirmation', question.prompt)],
      confirmations: [question],
      taskTabs: [{ tabId: 2, site: RECIPES }],
    });
    expect(screen.getByText(/carry what the agent read on recipes\.test to shop\.test/)).toBeTruthy();
    expect(screen.getByText(/recipes\.test → shop\.test/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Allow for this task' }));
    expect(intents('panel/confirm')).toEqual([{ type: 'panel/confirm', tabId: 1, confirmationId: 'q1', answer: 'allow-task' }]);
    // A question the host does not offer it for has no such button.
    const { allowTask: _none, ...plain } = question;
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ messages: [toolMessage('c1', 'x', 'awaiting-confirmation', 'Allow?')], confirmations: [plain] }),
    });
    expect(screen.queryByRole('button', { name: 'Allow for this task' })).toBeNull();
  });

  it('each card of a task across tabs names the site, page title and tab its call ran under, as recorded then (issue 45)', async () => {
    const { client } = setup({
      messages: [
        toolMessage('c1', 'recipes_test__get_ingredients', 'done'),
        toolMessage('c2', 'shop_test__add_to_basket', 'done'),
        toolMessage('c3', 'courier_test__track', 'done'),
      ],
      taskTabs: [{ tabId: 2, site: RECIPES }],
    });
    const entries: CallRecord[] = [
      {
        id: 'c1',
        at: 1,
        by: 'agent',
        tool: 'recipes_test__get_ingredients',
        tab: { tabId: 2, site: RECIPES, title: '<img src=x onerror="alert(2)"> Waffles' },
        input: {},
        state: 'done',
      },
      {
        id: 'c2',
        at: 2,
        by: 'agent',
        tool: 'shop_test__add_to_basket',
        tab: { tabId: 1, site: SHOP, title: 'Basket' },
        input: {},
        state: 'done',
      },
      {
        id: 'c3',
        at: 3,
        by: 'agent',
        tool: 'courier_test__track',
        tab: { tabId: 4, site: 'https://courier.test' },
        input: {},
        state: 'done',
      },
    ];
    client.emit({ type: 'panel/timeline', tabId: 1, entries });
    // The recorded title, as text: never markup.
    expect(screen.getByText('on recipes.test · <img src=x onerror="alert(2)"> Waffles (tab 2)')).toBeTruthy();
    expect(document.querySelector('.conversation img')).toBeNull();
    // Not the followed tab's title now ("Shop"), nor another tab's as the chooser lists it.
    expect(screen.getByText('on shop.test · Basket (this tab)')).toBeTruthy();
    expect(screen.getByText('on courier.test · tab 4')).toBeTruthy();
    await openChooser(client);
    expect(screen.getByText('on recipes.test · <img src=x onerror="alert(2)"> Waffles (tab 2)')).toBeTruthy();
    expect(screen.getByText('on courier.test · tab 4')).toBeTruthy();
  });

  it('says which tab left the task and why, until dismissed or replaced by the next', () => {
    const left = (tabId: number, site: string, reason: 'moved' | 'closed') => ({
      tabId,
      site,
      reason,
      message: `${site} left the task: ${reason}.`,
    });
    const { client } = setup({ taskLeft: [left(2, RECIPES, 'moved')] });
    expect(screen.getByRole('status').textContent).toContain(`${RECIPES} left the task: moved.`);
    fireEvent.click(within(screen.getByRole('status')).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(`${RECIPES} left the task: moved.`)).toBeNull();
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ taskLeft: [left(2, RECIPES, 'moved'), left(4, 'https://courier.test', 'closed')] }),
    });
    expect(screen.getByText(/courier\.test left the task: closed\./)).toBeTruthy();
  });

  it('the note that the conversation moved site speaks of its own tab only: another tab of the task showing its site is no change', () => {
    const { client } = setup({ sites: [SHOP, RECIPES], taskTabs: [{ tabId: 2, site: RECIPES }] });
    expect(screen.queryByRole('region', { name: /^Now on/ })).toBeNull();
    // A frame in the added tab: known from the timeline as the other tab's.
    client.emit({
      type: 'panel/timeline',
      tabId: 1,
      entries: [
        {
          id: 'c1',
          at: 1,
          by: 'agent',
          tool: 'x',
          tab: { tabId: 2, site: RECIPES },
          origin: 'https://frame.test',
          input: {},
          state: 'done',
        },
      ],
    });
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ sites: [SHOP, RECIPES, 'https://frame.test'], taskTabs: [{ tabId: 2, site: RECIPES }] }),
    });
    expect(screen.queryByRole('region', { name: /^Now on/ })).toBeNull();
    // The own tab moved: the note is back.
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ page: { url: 'https://evil.test/' }, sites: [SHOP, RECIPES], taskTabs: [{ tabId: 2, site: RECIPES }] }),
    });
    expect(screen.getByRole('region', { name: 'Now on evil.test' })).toBeTruthy();
  });
});
