// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdapterStatus, AgentMessage, AgentPart, ModelChoice } from '../../lib/agent/types';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { AdapterSummary, HostEvent, PanelIntent, TabSnapshot } from '../../lib/messaging/agent-messages';
import { panelTool } from '../../lib/testing/audit-tools';
// The shell loads the Audit view and the develop state on first use: loaded here, so the test waits for the view, not for a transform.
import '../inspector/audit-view';
import '../inspector/create-develop-state';
import { PanelShell } from './panel-shell';
import { createPanelStore } from './create-panel-store';
import { fakeAgentClient } from './fake-agent-client';

/** A mock of the Port to the host: records the panel's intents, and lets the test play the host's events. */
function recordingClient() {
  const sent: PanelIntent[] = [];
  const listeners = new Set<(e: HostEvent) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  let connected = true;
  // Asks are held as the fake client holds them (none of these tests answers one).
  const asks = fakeAgentClient();
  const client: AgentClient & { sent: PanelIntent[]; emit(e: HostEvent): unknown; setConnected(value: boolean): unknown } = {
    sent,
    send: (intent) => void sent.push(intent),
    ask: asks.ask,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    connected: () => connected,
    onConnectionChange: (l) => {
      connectionListeners.add(l);
      return () => connectionListeners.delete(l);
    },
    close: () => {},
    // The host goes away (Chrome closed the offscreen document) or answers again.
    setConnected: (value) =>
      act(() => {
        connected = value;
        for (const l of connectionListeners) l(value);
      }),
    // Host events arrive outside any handler: act() renders what they change before the test looks.
    emit: (e) =>
      act(() => {
        for (const l of listeners) l(e);
      }),
  };
  return client;
}

const snapshot = (patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 1,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  ...patch,
});

const adapters = (status: AdapterStatus = { state: 'ready' }, models: ModelChoice[] = []): HostEvent => ({
  type: 'panel/adapters',
  chosen: 'local',
  adapters: [
    { kind: 'local', label: 'On-device', status, models },
    { kind: 'cloud', label: 'Cloud', status: { state: 'ready' }, models: [] },
  ] satisfies AdapterSummary[],
});

function setup(tab: Partial<TabSnapshot> = {}, status?: AdapterStatus, models?: ModelChoice[]) {
  const client = recordingClient();
  const store = createPanelStore(client);
  store.bind(1, 'https://shop.test/');
  const onOpenOptions = vi.fn();
  render(<PanelShell store={store} onOpenOptions={onOpenOptions} />);
  client.emit(adapters(status, models));
  // The host names the page the tab shows, as it does once it has the tab's tools.
  client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/' }, ...tab }) });
  return { client, store, onOpenOptions, intents: () => client.sent.filter((i) => i.type !== 'panel/bind') };
}

const user = (text: string): AgentMessage => ({ id: `u-${text}`, role: 'user', parts: [{ type: 'text', text }] });

afterEach(cleanup);

describe('PanelShell', () => {
  it('binds its tab, and the composer sends on Enter (Shift+Enter does not) and clears itself', async () => {
    const { client, intents } = setup();
    expect(client.sent[0]).toEqual({ type: 'panel/bind', tabId: 1, url: 'https://shop.test/' });
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'find lamps' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(intents()).toEqual([]);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(intents()).toEqual([{ type: 'panel/send', tabId: 1, text: 'find lamps', site: 'https://shop.test' }]);
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('keeps Send disabled while the adapter is not ready, and keeps the typed text', async () => {
    setup({}, { state: 'needs-download', bytes: 568_000_000 });
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'hello' } });
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((box as HTMLTextAreaElement).value).toBe('hello');
  });

  it('a message sent before the panel has connected and the agent is ready is not dropped: it waits, then goes', () => {
    // What the Firefox smoke run once hit: Enter pressed while the panel was still connecting to its host.
    const client = recordingClient();
    const store = createPanelStore(client);
    store.bind(1, 'https://shop.test/');
    render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'find a mug' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toContain('Sending as soon as the agent is ready: “find a mug”');
    client.emit(adapters({ state: 'loading' }));
    client.emit({ type: 'panel/tab', snapshot: snapshot({}) });
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    client.emit(adapters({ state: 'ready' }));
    // Ready, but the host does not know yet which site the tab shows: the message waits for that too.
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect(store.waiting.value).toBe('find a mug');
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/mugs' } }) });
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([
      { type: 'panel/send', tabId: 1, text: 'find a mug', site: 'https://shop.test' },
    ]);
    expect(store.waiting.value).toBeUndefined();
  });

  it('a waiting message goes to the site it was typed on or nowhere: the tab moved to another site, so it comes back with a note', () => {
    const client = recordingClient();
    const store = createPanelStore(client);
    store.bind(1, 'https://bank.example/account');
    render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
    client.emit(adapters({ state: 'loading' }));
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://bank.example/account' } }) });
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'what is my recovery code?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.waiting.value).toBe('what is my recovery code?');
    // Another site loads in the tab while the agent still gets ready.
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://partner.example/' } }) });
    client.emit(adapters({ state: 'ready' }));
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect((box as HTMLTextAreaElement).value).toBe('what is my recovery code?');
    expect(screen.getByRole('alert').textContent).toContain(
      'The tab moved to partner.example before the agent was ready, so your message was not sent.',
    );
  });

  it('a message typed while the host was away waits for the host to know the tab’s site again: a snapshot from before, or one naming no page, sends nothing; another site sends it back with the note', () => {
    const client = recordingClient();
    const store = createPanelStore(client);
    store.bind(1, 'https://bank.example/account');
    render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
    client.emit(adapters({ state: 'ready' }));
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://bank.example/account' } }) });
    // The host goes away; the person types their card number on the bank; the panel shows it waiting.
    client.setConnected(false);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'my card is 4111 1111 1111 1111' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.waiting.value).toBe('my card is 4111 1111 1111 1111');
    // The tab moves to the partner meanwhile. The host comes back: its fresh session has not read the tab yet, so
    // the snapshot it answers the bind with names no page, and the one from before it went away is stale.
    client.setConnected(true);
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    client.emit({ type: 'panel/tab', snapshot: snapshot({ toolsKnown: false }) });
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect(store.waiting.value).toBe('my card is 4111 1111 1111 1111');
    // Then it reads the tab: another site.
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://partner.example/' } }) });
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect(store.waiting.value).toBeUndefined();
    expect((box as HTMLTextAreaElement).value).toBe('my card is 4111 1111 1111 1111');
    expect(screen.getByRole('alert').textContent).toContain(
      'The tab moved to partner.example before the agent was ready, so your message was not sent.',
    );
  });

  it('a waiting message comes back at once when the browser says the tab moved to another site, or to a page of no site', () => {
    for (const [to, note] of [
      ['https://partner.example/offers', 'The tab moved to partner.example before the agent was ready'],
      ['chrome://newtab/', 'The agent does not know yet which site the tab shows, so your message was not sent.'],
    ]) {
      const client = recordingClient();
      const store = createPanelStore(client);
      store.bind(1, 'https://bank.example/account');
      const { unmount } = render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
      client.setConnected(false);
      const box = screen.getByRole('textbox', { name: 'Message' });
      fireEvent.input(box, { target: { value: 'my recovery code is 7731' } });
      fireEvent.keyDown(box, { key: 'Enter' });
      expect(store.waiting.value).toBe('my recovery code is 7731');
      // followTab: the browser reports the bound tab's new address.
      act(() => store.bind(1, to));
      expect(store.waiting.value).toBeUndefined();
      expect(store.draft.value).toBe('my recovery code is 7731');
      expect(screen.getByRole('alert').textContent).toContain(note);
      // The host comes back showing that page: nothing goes.
      client.setConnected(true);
      client.emit(adapters({ state: 'ready' }));
      client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: to } }) });
      expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
      unmount();
    }
  });

  it('takes no message on a tab whose site nobody knows: it stays in the box, with a note', () => {
    const client = recordingClient();
    const store = createPanelStore(client);
    store.bind(1);
    render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
    client.emit(adapters({ state: 'ready' }));
    client.emit({ type: 'panel/tab', snapshot: snapshot({}) });
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.waiting.value).toBeUndefined();
    expect((box as HTMLTextAreaElement).value).toBe('hello');
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
    expect(screen.getByRole('alert').textContent).toContain('The agent cannot tell which site this tab shows');
  });

  it('a message the host refused for another site comes back to the box, before anything typed since', () => {
    const { client, store } = setup({ page: { url: 'https://partner.example/' } });
    act(() => {
      store.draft.value = 'typed since';
    });
    client.emit({ type: 'panel/notice', tabId: 1, message: 'The tab moved to partner.example…', draft: 'my question' });
    expect(store.draft.value).toBe('my question\n\ntyped since');
    expect(screen.getByRole('alert').textContent).toContain('The tab moved to partner.example…');
  });

  it('says so when the conversation holds another site’s data, and offers a new chat for this site', () => {
    const { client, intents } = setup({
      messages: [user('my profile')],
      sites: ['https://bank.example'],
      page: { url: 'https://partner.example/' },
    });
    const notice = screen.getByRole('region', { name: 'Now on partner.example' });
    expect(notice.textContent).toContain('This conversation holds what the agent read on bank.example.');
    fireEvent.click(within(notice).getByRole('button', { name: 'New chat for partner.example' }));
    expect(intents()).toEqual([{ type: 'panel/new-chat', tabId: 1 }]);
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ sites: ['https://partner.example'], page: { url: 'https://partner.example/' } }),
    });
    expect(screen.queryByRole('region', { name: 'Now on partner.example' })).toBeNull();
  });

  it('a waiting message comes back to the box when the agent turns out unable to run, and never goes to another tab', () => {
    const client = recordingClient();
    const store = createPanelStore(client);
    store.bind(1, 'https://shop.test/');
    render(<PanelShell store={store} onOpenOptions={vi.fn()} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    client.emit({ type: 'panel/tab', snapshot: snapshot({}) });
    client.emit(adapters({ state: 'needs-download', bytes: 568_000_000 }));
    expect(store.waiting.value).toBeUndefined();
    expect((box as HTMLTextAreaElement).value).toBe('hello');

    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.waiting.value).toBeUndefined();
    act(() => store.bind(2, 'https://two.test/'));
    fireEvent.input(box, { target: { value: 'for tab 2' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.waiting.value).toBe('for tab 2');
    act(() => store.bind(3, 'https://two.test/'));
    expect(store.waiting.value).toBeUndefined();
    expect(store.draft.value).toBe('for tab 2');
    expect(client.sent.filter((i) => i.type === 'panel/send')).toEqual([]);
  });

  it('a call that may have acted says "outcome unknown", and a question asked whatever the policy shows the arguments', () => {
    const prompt =
      'Allow pay on shop.test? Its last call in this run may have happened without saying so (outcome unknown): check the page first.';
    setup({
      messages: [
        user('pay'),
        {
          id: 'a',
          role: 'assistant',
          parts: [
            {
              type: 'tool',
              id: 'c1',
              name: 'pay',
              input: { amount: 5 },
              state: 'error',
              error: 'Error [timeout]: slow. Outcome unknown: it may have happened. Check the page before trying again.',
            },
            { type: 'tool', id: 'c2', name: 'pay', input: { amount: 5 }, state: 'awaiting-confirmation', prompt },
          ],
        },
      ],
      confirmations: [{ id: 'q1', callId: 'c2', toolName: 'pay', allowAlways: false, prompt, input: '{\n  "amount": 5\n}' }],
    });
    const states = [...document.querySelectorAll('.tool-state')].map((e) => e.textContent);
    expect(states).toEqual(['outcome unknown', 'waiting for you']);
    const group = screen.getByRole('group', { name: prompt });
    expect(within(group).getByTitle('Arguments pay would receive').textContent).toBe('{\n  "amount": 5\n}');
    expect(within(group).queryByRole('button', { name: /Always/ })).toBeNull();
  });

  it('masks what a call’s schema marks secret in its card, and shows a question’s secret only on its own Reveal', () => {
    const secret = 'hunter2-correct-horse';
    const masked = (user: string) => JSON.stringify({ user, password: '[redacted]' }, null, 2);
    const clear = (user: string) => JSON.stringify({ user, password: secret }, null, 2);
    const prompt = (n: number) => `Allow sign_in on partner.test? This conversation holds what was read on bank.test (${n}).`;
    const signIn = (id: string, user: string, patch: Pick<Extract<AgentPart, { type: 'tool' }>, 'state' | 'output' | 'prompt'>) => ({
      type: 'tool' as const,
      id,
      name: 'sign_in',
      input: { user, password: secret },
      secretPaths: [['password']],
      ...patch,
    });
    const question = (n: number) => ({
      id: `q${n}`,
      callId: `c${n}`,
      toolName: 'sign_in',
      allowAlways: false,
      prompt: prompt(n),
      input: masked(`user${n}`),
      masked: true as const,
    });
    const { client, store, intents } = setup({
      messages: [
        user('sign in'),
        {
          id: 'a',
          role: 'assistant',
          parts: [
            signIn('c0', 'ada', { state: 'done', output: { content: [{ type: 'text', text: `Welcome (password ${secret} accepted)` }] } }),
            signIn('c1', 'user1', { state: 'awaiting-confirmation', prompt: prompt(1) }),
            signIn('c2', 'user2', { state: 'awaiting-confirmation', prompt: prompt(2) }),
          ],
        },
      ],
      confirmations: [question(1), question(2)],
    });
    // Every card's input and output, and both questions: no secret in the panel's text.
    expect(document.body.textContent).not.toContain(secret);
    expect(screen.getAllByTitle('Input of sign_in')[0].textContent).toBe(masked('ada'));
    expect(screen.getByTitle('Output of sign_in').textContent).toBe('Welcome (password [redacted] accepted)');
    const first = screen.getByRole('group', { name: prompt(1) });
    const second = screen.getByRole('group', { name: prompt(2) });
    expect(within(first).getByTitle('Arguments sign_in would receive').textContent).toBe(masked('user1'));
    expect(within(second).queryByRole('button', { name: 'Hide secret values' })).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: 'Reveal secret values' }));
    expect(intents()).toEqual([{ type: 'panel/reveal', tabId: 1, confirmationId: 'q1' }]);
    // Nothing shows until the host answers for that question.
    expect(document.body.textContent).not.toContain(secret);
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q1', input: clear('user1') });
    expect(within(first).getByTitle('Arguments sign_in would receive').textContent).toBe(clear('user1'));
    expect(within(second).getByTitle('Arguments sign_in would receive').textContent).toBe(masked('user2'));
    expect(document.body.textContent?.split(secret)).toHaveLength(2);

    fireEvent.click(within(first).getByRole('button', { name: 'Hide secret values' }));
    expect(document.body.textContent).not.toContain(secret);
    // A reveal for another tab, or for a question that is not open, shows nothing.
    client.emit({ type: 'panel/revealed', tabId: 2, confirmationId: 'q2', input: clear('user2') });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q9', input: clear('user9') });
    expect(document.body.textContent).not.toContain(secret);
    // A question that closes takes what was revealed in it along.
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q2', input: clear('user2') });
    expect(store.revealed.value).toEqual({ q2: clear('user2') });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ confirmations: [question(1)] }) });
    expect(store.revealed.value).toEqual({});
  });

  it('renders the conversation: text, every call state in words, nested sub-agents, and no reasoning', () => {
    const call = (id: string, state: 'running' | 'awaiting-confirmation' | 'done' | 'error' | 'cancelled') => ({
      type: 'tool' as const,
      id,
      name: `tool_${id}`,
      input: { q: id },
      state,
      ...(state === 'done' ? { output: { content: [{ type: 'text' as const, text: '{"found":2}' }] } } : {}),
      ...(state === 'error' ? { error: 'Error [tool_error]: broke' } : {}),
    });
    setup({
      messages: [
        user('buy a lamp'),
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'SECRET THOUGHTS' },
            { type: 'text', text: 'Looking now.' },
            call('1', 'running'),
            call('2', 'done'),
            call('3', 'error'),
            call('4', 'cancelled'),
            {
              type: 'tool',
              id: '5',
              name: 'delegate_to_cart',
              input: {},
              state: 'done',
              agent: { id: 'cart', messages: [{ id: 'n', role: 'assistant', parts: [call('6', 'done')] }] },
            },
          ],
        },
      ],
    });
    const conversation = within(screen.getByRole('region', { name: 'Conversation' }));
    expect(conversation.getByText('buy a lamp')).toBeTruthy();
    expect(conversation.getByText('Looking now.')).toBeTruthy();
    expect(screen.queryByText(/SECRET THOUGHTS/)).toBeNull();
    const state = (name: string) => screen.getByText(name).parentElement!.querySelector('.tool-state')!.textContent;
    expect([state('tool_1'), state('tool_2'), state('tool_3'), state('tool_4')]).toEqual(['running', 'done', 'failed', 'cancelled']);
    // Input and output are behind the disclosure, output JSON indented.
    const done = screen.getByText('tool_2').closest('.tool-card')!;
    expect(done.querySelectorAll('pre')[1].textContent).toBe('{\n  "found": 2\n}');
    const nested = screen.getByRole('region', { name: 'Sub-agent cart' });
    expect(within(nested).getByText('tool_6')).toBeTruthy();
  });

  it('asks for confirmation with three answers, each sent to the host under the host-given id', () => {
    const prompt = 'Allow add_to_cart on shop.test? The site does not mark it as read-only.';
    const { intents } = setup({
      running: true,
      messages: [
        user('buy'),
        {
          id: 'a',
          role: 'assistant',
          parts: [{ type: 'tool', id: 'c1', name: 'add_to_cart', input: {}, state: 'awaiting-confirmation', prompt }],
        },
      ],
      confirmations: [{ id: 'q-7f3a', callId: 'c1', toolName: 'add_to_cart', origin: 'https://shop.test', allowAlways: true, prompt }],
    });
    const group = screen.getByRole('group', { name: prompt });
    expect(group.closest('.tool-card')!.querySelector('.tool-state')!.textContent).toBe('waiting for you');
    fireEvent.click(within(group).getByRole('button', { name: 'Always on this site' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Deny' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Allow once' }));
    expect(intents()).toEqual([
      { type: 'panel/confirm', tabId: 1, confirmationId: 'q-7f3a', answer: 'allow-always' },
      { type: 'panel/confirm', tabId: 1, confirmationId: 'q-7f3a', answer: 'deny' },
      { type: 'panel/confirm', tabId: 1, confirmationId: 'q-7f3a', answer: 'allow-once' },
    ]);
  });

  it('offers no "Always" for a tool the site marks consequential', () => {
    const prompt = 'Allow check_out on shop.test? The site marks it as consequential: it asks every time.';
    setup({
      running: true,
      messages: [
        {
          id: 'a',
          role: 'assistant',
          parts: [{ type: 'tool', id: 'c1', name: 'check_out', input: {}, state: 'awaiting-confirmation', prompt }],
        },
      ],
      confirmations: [{ id: 'q-1', callId: 'c1', toolName: 'check_out', origin: 'https://shop.test', allowAlways: false, prompt }],
    });
    const group = screen.getByRole('group', { name: prompt });
    expect(within(group).getByRole('button', { name: 'Allow once' })).toBeTruthy();
    expect(within(group).queryByRole('button', { name: 'Always on this site' })).toBeNull();
  });

  it('a call parked on the page shows what to click, without answer buttons', () => {
    setup({
      running: true,
      messages: [
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'tool', id: 'f', name: 'subscribe', input: {}, state: 'awaiting-confirmation', prompt: 'Press Subscribe on the page.' },
          ],
        },
      ],
    });
    expect(screen.getByText('Press Subscribe on the page.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow once' })).toBeNull();
  });

  it('a call waiting for the page to offer its tool says so in its card', () => {
    setup({
      running: true,
      messages: [
        {
          id: 'a',
          role: 'assistant',
          parts: [
            {
              type: 'tool',
              id: 'w',
              name: 'filter_results',
              input: {},
              state: 'running',
              prompt: 'Waiting for the page to offer filter_results…',
            },
          ],
        },
      ],
    });
    expect(screen.getByText('Waiting for the page to offer filter_results…').getAttribute('role')).toBe('status');
  });

  it('shows that the agent is working until its reply shows something (reasoning does not count)', async () => {
    const { client } = setup({ running: true, messages: [user('go')] });
    const working = () => document.querySelector('.thinking');
    expect(working()).not.toBeNull();
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({
        running: true,
        messages: [user('go'), { id: 'a', role: 'assistant', parts: [{ type: 'reasoning', text: 'hmm' }] }],
      }),
    });
    expect(working()).not.toBeNull();
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({
        running: true,
        messages: [user('go'), { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'On it.' }] }],
      }),
    });
    expect(working()).toBeNull();
  });

  it('while running shows Stop instead of Send, and Esc stops too', () => {
    const { intents } = setup({ running: true, messages: [user('go')] });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(intents()).toEqual([
      { type: 'panel/stop', tabId: 1 },
      { type: 'panel/stop', tabId: 1 },
    ]);
  });

  it('explains an error by its code, with Retry; a refused key links to the settings', () => {
    const { intents, onOpenOptions, client } = setup({
      messages: [user('hi')],
      lastRun: { reason: 'error', error: 'Too many requests.', code: 'rate_limited' },
    });
    expect(screen.getByText(/Wait a minute, then press Retry/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open settings' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(intents()).toEqual([{ type: 'panel/retry', tabId: 1 }]);
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({
        messages: [user('hi')],
        lastRun: { reason: 'error', error: "OpenAI refused the API key (401). Check the key in the extension's options page." },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(onOpenOptions).toHaveBeenCalledOnce();
  });

  it('after Stop says so (and announces it) and offers Retry', () => {
    setup({ messages: [user('hi')], lastRun: { reason: 'aborted' } });
    expect(screen.getByRole('heading', { name: 'Stopped' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(document.querySelector('[aria-live="polite"]')!.textContent).toBe('Stopped.');
  });

  it('moves keyboard focus to a new question, unless the person is typing', () => {
    const prompt = 'Allow check_out on shop.test? The site marks it as consequential.';
    const asking = {
      running: true,
      messages: [
        {
          id: 'a',
          role: 'assistant' as const,
          parts: [{ type: 'tool' as const, id: 'c1', name: 'check_out', input: {}, state: 'awaiting-confirmation' as const, prompt }],
        },
      ],
      confirmations: [{ id: 'q-1', callId: 'c1', toolName: 'check_out', allowAlways: false, prompt }],
    };
    const { client } = setup({ running: true });
    client.emit({ type: 'panel/tab', snapshot: snapshot(asking) });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Allow once' }));
    cleanup();
    const second = setup({ running: true });
    screen.getByRole('textbox', { name: 'Message' }).focus();
    second.client.emit({ type: 'panel/tab', snapshot: snapshot(asking) });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });

  it('explains each adapter status: download (size, click to start), progress with cancel, load, unavailable', async () => {
    const { client, intents, store } = setup(
      {},
      { state: 'needs-download', bytes: 568_000_000, note: 'No WebGPU here: a smaller, slower model runs on the CPU.' },
    );
    expect(screen.getByText(/one-time download of 568 MB/)).toBeTruthy();
    expect(screen.getByText(/No WebGPU here/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download (568 MB)' }));
    expect(intents()).toEqual([{ type: 'panel/prepare', adapter: 'local' }]);

    client.emit(adapters({ state: 'downloading', progress: 0.42 }));
    await Promise.resolve();
    const bar = await screen.findByRole('progressbar', { name: 'Download progress' });
    expect(bar.getAttribute('value')).toBe('42');
    expect(screen.getByText(/42% downloaded/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel download' }));
    expect(intents().at(-1)).toEqual({ type: 'panel/cancel-prepare', adapter: 'local' });

    client.emit(adapters({ state: 'loading', progress: 0.5 }));
    expect(await screen.findByText(/Reading the model from this device: 50%/)).toBeTruthy();
    expect(screen.queryByText(/download/i)).toBeNull();

    client.emit(adapters({ state: 'unavailable', reason: 'This browser has no built-in model.' }));
    expect(await screen.findByText('This browser has no built-in model.')).toBeTruthy();
    expect(store.canSend.value).toBe(false);
  });

  it('says why the selected model was picked for this device, and nothing when the person picked another', () => {
    const why = 'WebGPU with shader-f16 and 8 GB of memory: LFM3 1.7B is the strongest tool caller that fits.';
    const models: ModelChoice[] = [
      { id: 'qwen', label: 'Qwen3 0.6B', brief: 'Small', bytes: 570_000_000 },
      { id: 'lfm3', label: 'LFM3 1.7B', brief: 'Strong', bytes: 1_380_000_000, recommended: true, why, selected: true },
    ];
    setup({}, { state: 'ready' }, models);
    expect(screen.getByText(`Picked for this device: ${why}`)).toBeTruthy();
    cleanup();
    setup({}, { state: 'ready' }, [
      { ...models[0], selected: true },
      { ...models[1], selected: false },
    ]);
    expect(screen.queryByText(/Picked for this device/)).toBeNull();
  });

  it('the Agent control and the model picker send their choices', () => {
    const models: ModelChoice[] = [
      { id: 'qwen', label: 'Qwen3 0.6B', brief: 'Small', bytes: 568_000_000, selected: true },
      { id: 'lfm', label: 'LFM2 1.2B', brief: 'Better tools', bytes: 868_000_000, cached: true },
    ];
    const { intents } = setup({}, { state: 'ready' }, models);
    const agent = screen.getByRole('combobox', { name: 'Agent' }) as HTMLSelectElement;
    expect([...agent.options].map((o) => o.textContent)).toEqual(['On-device', 'Cloud']);
    const picker = screen.getByRole('combobox', { name: 'Model' }) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(['Qwen3 0.6B · 568 MB', 'LFM2 1.2B · 868 MB · downloaded']);
    fireEvent.change(picker, { target: { value: 'lfm' } });
    fireEvent.change(agent, { target: { value: 'cloud' } });
    expect(intents()).toEqual([
      { type: 'panel/choose-model', adapter: 'local', modelId: 'lfm' },
      { type: 'panel/choose-adapter', adapter: 'cloud' },
    ]);
    // The cloud adapter has one model: no picker.
    expect(screen.queryByRole('combobox', { name: 'Model' })).toBeNull();
  });

  it('the Tools view lists tools with annotations, and explains a page without any', async () => {
    const { client } = setup({
      tools: [
        { name: 'search', title: 'Search', description: 'Find products', inputSchema: {}, annotations: { readOnlyHint: true } },
        { name: 'check_out', description: 'Buy', inputSchema: {}, annotations: { consequentialHint: true } },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Tools (2)' }));
    const items = screen.getAllByRole('listitem').filter((li) => li.querySelector('h3'));
    expect(items.map((li) => li.querySelector('h3')!.textContent)).toEqual(['Search', 'check_out']);
    expect(within(items[0]).getByText('Read-only')).toBeTruthy();
    expect(within(items[1]).getByText('Consequential')).toBeTruthy();
    client.emit({ type: 'panel/tab', snapshot: snapshot({ tools: [] }) });
    expect(await screen.findByText('This page offers no tools.')).toBeTruthy();
  });

  it('announces streamed text politely, a sentence at a time', async () => {
    const { client } = setup({ running: true, messages: [user('hi')] });
    const live = document.querySelector('[aria-live="polite"]')!;
    const reply = (text: string, running = true) =>
      client.emit({
        type: 'panel/tab',
        snapshot: snapshot({ running, messages: [user('hi'), { id: 'a', role: 'assistant', parts: [{ type: 'text', text }] }] }),
      });
    reply('I found three');
    await Promise.resolve();
    expect(live.textContent).toBe('');
    reply('I found three lamps. The');
    await vi.waitFor(() => expect(live.textContent).toBe('I found three lamps.'));
    reply('I found three lamps. The cheapest costs 12 €', false);
    await vi.waitFor(() => expect(live.textContent).toBe('The cheapest costs 12 €'));
  });

  it('New chat sends its intent; ignores snapshots of other tabs', () => {
    const { intents, client } = setup({ messages: [user('old')] });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ tabId: 2, messages: [user('other tab')] }) });
    expect(screen.queryByText('other tab')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    expect(intents()).toEqual([{ type: 'panel/new-chat', tabId: 1 }]);
  });
});

const ports = { scanForms: async () => [] as unknown, siteAgentFor: async () => undefined };

describe('PanelShell › a page over the limits (issue 45)', () => {
  it('says what was refused, in the extension’s words, the page’s title as text; Stop still works', () => {
    const note = '“<img src=x onerror=alert(1)>” (flood.test) re-reported its tools more often than the extension takes them in.';
    const { intents } = setup({ running: true, messages: [user('go')], pageLimits: [{ kind: 'reports', note }] });
    const notice = screen.getByRole('status', { name: '' });
    expect(notice.textContent).toContain('This page asks more of the extension than it allows.');
    expect(within(notice).getByText(note)).toBeTruthy();
    expect(document.querySelector('.page-limits img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(intents().map((i) => i.type)).toContain('panel/stop');
  });
});

describe('PanelShell › Audit', () => {
  it('opens the Audit view from the panel’s views', async () => {
    const client = recordingClient();
    const store = createPanelStore(client, { audit: ports });
    store.bind(3, 'https://shop.example/');
    render(<PanelShell store={store} onOpenOptions={() => {}} />);
    client.emit({
      type: 'panel/tab',
      snapshot: { tabId: 3, messages: [], running: false, confirmations: [], tools: [panelTool()], toolsKnown: true },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Audit' }));
    expect(screen.getByRole('button', { name: 'Audit' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Audit' })).toBeTruthy());
    await waitFor(() => expect(screen.getByText(/No findings/)).toBeTruthy());
  });
});
