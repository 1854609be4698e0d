/**
 * The tab session's trust rules across sites and agents (issue 22, items 1, 2 and 5; docs/security.md, "A
 * conversation belongs to its site", "Only the tools offered run", "Outcome unknown"), with a page bridge whose
 * page and tools change as a real tab's do.
 */
import { describe, expect, it } from 'vitest';
import { OUTCOME_UNKNOWN_NOTE } from '../agent/tool-error-codes';
import type {
  AgentAdapter,
  AgentRunRequest,
  AgentStreamPart,
  PageContext,
  ToolCall,
  ToolDescriptor,
  ToolOutput,
  WebAgent,
} from '../agent/types';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { createConversationStore } from '../storage/conversations';
import { createSettingsStore } from '../storage/settings-store';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { untilSnapshot } from '../testing/until-snapshot';
import type { HostRouterClient } from './agent-host-deps';
import { createTabSession, SITE_UNKNOWN_RUN_ERROR } from './create-tab-session';

const A = 'https://bank.example';
const B = 'https://partner.example';

const entry = (origin: string, name: string, annotations?: ToolDescriptor['annotations']): TabToolEntry => ({
  name,
  originalName: name,
  origin,
  frameId: 0,
  description: name,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});
const readOnly = { readOnlyHint: true };
const BANK_TOOLS = [entry(A, 'get_profile', readOnly), entry(A, 'partner_offers', readOnly)];
const PARTNER_TOOLS = [entry(B, 'lookup', readOnly)];
const PROFILE = 'SSN 078-05-1120, card 4111 1111 1111 1111';

/** A model that makes each step's call (from what it saw: the step's tools), then answers. */
function scriptedModel(
  steps: ((req: AgentRunRequest) => ToolCall | undefined)[],
  seen: string[][] = [],
): AgentAdapter & { seen: string[][] } {
  return {
    id: 'scripted',
    label: 'Scripted',
    seen,
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
      yield req.signal.aborted ? { type: 'finish', reason: 'aborted' } : { type: 'finish', reason: 'stop' };
    },
  };
}

function setup(
  adapter: AgentAdapter,
  options: { agent?: WebAgent; answer?: (call: ToolCall) => ToolOutput; bankTools?: TabToolEntry[]; beforeRead?: () => void } = {},
) {
  const bankTools = options.bankTools ?? BANK_TOOLS;
  const local = createMemoryStorageArea();
  const store = createSettingsStore({ local });
  const settings = { ...store, siteAgentFor: async () => options.agent };
  const tab: { page: PageContext; tools: TabToolEntry[] } = { page: { url: `${A}/account` }, tools: bankTools };
  const ran: ToolCall[] = [];
  const bridge: HostRouterClient = {
    getTools: async (tabId) => {
      options.beforeRead?.();
      return { tabId, tools: tab.tools, page: tab.page };
    },
    callTool: async (_tabId, call) => {
      ran.push(call);
      if (call.name === 'partner_offers') navigate(B);
      return options.answer?.(call) ?? { content: [{ type: 'text', text: call.name === 'get_profile' ? PROFILE : `${call.name} ran` }] };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  // The bridge tells of every change of the tab's tools, as the router's pushes do (RouterClient.subscribe).
  const listeners = new Set<(tabId: number) => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener(1);
  };
  const navigate = (site: string) => {
    tab.page = { url: `${site}/` };
    tab.tools = site === A ? bankTools : PARTNER_TOOLS;
    changed();
  };
  /**
   * The router names no top page (the top frame's new document announced itself and has not reported yet, or the
   * router has not heard from it at all), while `tools` (frames of the page loading) are listed.
   */
  const pageUnknown = (tools: TabToolEntry[]) => {
    tab.page = {};
    tab.tools = tools;
    changed();
  };
  let next = 0;
  const session = createTabSession({
    tabId: 1,
    url: `${A}/account`,
    store: createConversationStore(local, { session: 's' }),
    bridge,
    settings,
    adapter: async () => adapter,
    generateId: () => `host-id-${++next}`,
    saveDelayMs: 1,
    emitDelayMs: 1,
  });
  const asked = () => untilSnapshot(session, (s) => s.confirmations[0]);
  return { session, store, ran, navigate, pageUnknown, asked };
}

const lookupWithEverything = (id: string) => (): ToolCall => ({ id, name: 'lookup', input: { query: PROFILE } });

describe('createTabSession across sites', () => {
  it('asks, showing the arguments, before another site’s read-only tool gets a conversation that read the first site', async () => {
    const model = scriptedModel([() => ({ id: 'c1', name: 'get_profile', input: {} }), () => undefined]);
    const { session, ran, navigate, asked } = setup(model);
    await session.send('What is on my profile?', A);
    expect(session.snapshot().sites).toEqual([A]);

    // The person types the partner's address; the conversation stays, and says where it has been.
    navigate(B);
    await session.refreshTools();
    const next = scriptedModel([lookupWithEverything('c2'), () => undefined]);
    Object.assign(model, { run: next.run });
    const sending = session.send('Now look up my offers', B);
    const question = await asked();
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(question.allowAlways).toBe(false);
    expect(question.prompt).toBe(
      'Allow lookup on partner.example? This conversation holds what was read on bank.example; the arguments below would go to partner.example.',
    );
    expect(question.input).toContain('078-05-1120');
    session.confirm(question.id, 'deny');
    await sending;
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(session.snapshot().sites).toEqual([A, B]);
  });

  it('a new chat leaves the old site behind: the new site’s read-only tool runs as its annotations say', async () => {
    const model = scriptedModel([() => ({ id: 'c1', name: 'get_profile', input: {} }), () => undefined]);
    const { session, ran, navigate } = setup(model);
    await session.send('What is on my profile?', A);
    navigate(B);
    await session.refreshTools();
    await session.newChat();
    expect(session.snapshot().sites).toBeUndefined();
    Object.assign(model, { run: scriptedModel([() => ({ id: 'c2', name: 'lookup', input: { query: 'offers' } }), () => undefined]).run });
    await session.send('Look up offers', B);
    expect(ran.map((c) => c.name)).toEqual(['get_profile', 'lookup']);
  });

  it('ends a run whose tool took the tab to another site: nothing of the new site runs, the model is shown none of its tools, and the run says why', async () => {
    const model = scriptedModel([
      () => ({ id: 'c1', name: 'get_profile', input: {} }),
      () => ({ id: 'c2', name: 'partner_offers', input: {} }),
      lookupWithEverything('c3'),
      () => undefined,
    ]);
    const { session, ran } = setup(model);
    await session.send('Show me partner offers', A);
    expect(ran.map((c) => c.name)).toEqual(['get_profile', 'partner_offers']);
    expect(model.seen.flat()).not.toContain('lookup');
    expect(session.snapshot().lastRun).toEqual({
      reason: 'error',
      code: 'site_changed',
      error:
        'The tab moved from bank.example to partner.example, so the run stopped: what the agent read on bank.example stays with bank.example. Ask again to go on with partner.example.',
    });
  });

  it('a tool that arrives with another site’s page while the call waits for it is not this run’s', async () => {
    const model = scriptedModel([lookupWithEverything('c1'), () => undefined]);
    const { session, ran, navigate } = setup(model);
    const sending = session.send('Look it up', A);
    // The call waits for "lookup", which the bank does not have; then the partner's page brings one.
    const waiting = await untilSnapshot(session, (snapshot) =>
      snapshot.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.prompt),
    );
    expect(waiting).toMatchObject({ prompt: 'Waiting for the page to offer lookup…' });
    navigate(B);
    await session.refreshTools();
    await sending;
    expect(ran).toEqual([]);
    const call = session
      .snapshot()
      .messages.flatMap((m) => m.parts)
      .find((p) => p.type === 'tool');
    expect(call).toMatchObject({
      state: 'error',
      error: expect.stringMatching(/^Error \[tool_changed\]: the tab is on partner\.example now/),
    });
    expect(session.snapshot().lastRun?.code).toBe('site_changed');
  });

  it('sends nothing when the tab left the site the message was typed on', async () => {
    const model = scriptedModel([lookupWithEverything('c1'), () => undefined]);
    const { session, ran, navigate } = setup(model);
    navigate(B);
    await session.refreshTools();
    const refused = await session.send('What is on my profile?', A);
    expect(refused?.refused).toBe(
      'The tab moved to partner.example before the agent was ready, so your message was not sent. Send it again to ask about partner.example.',
    );
    expect(session.snapshot().messages).toEqual([]);
    expect(ran).toEqual([]);
    expect(await session.send('Look up offers', B)).toBeUndefined();
    expect(ran.map((c) => c.name)).toEqual(['lookup']);
  });
});

describe('createTabSession when the tab’s site is not known (issue 33, item 1): fail closed', () => {
  const CARD = 'my card is 4111 1111 1111 1111';
  const lookupCard = () => (): ToolCall => ({ id: 'c1', name: 'lookup', input: { query: CARD } });

  it('a fresh session (the host came back) runs nothing before the router names the tab’s site, and never on the URL the panel bound: the tab moved to B, so the message typed on A comes back', async () => {
    const model = scriptedModel([lookupCard(), () => undefined]);
    // The panel bound the tab on the bank (its URL is the session's `url`); the tab went to the partner while the
    // host was away, and this session has not read the tab yet.
    const { session, ran, navigate } = setup(model);
    navigate(B);
    const refused = await session.send(CARD, A);
    expect(refused?.refused).toBe(
      'The tab moved to partner.example before the agent was ready, so your message was not sent. Send it again to ask about partner.example.',
    );
    expect(ran).toEqual([]);
    expect(model.seen).toEqual([]);
    expect(session.snapshot().messages).toEqual([]);
    expect(session.snapshot().sites).toBeUndefined();
  });

  it('a message goes nowhere while the router names no page, and runs once it names the site it was typed on', async () => {
    const model = scriptedModel([() => ({ id: 'c1', name: 'get_profile', input: {} }), () => undefined]);
    const { session, ran, navigate, pageUnknown } = setup(model);
    pageUnknown(PARTNER_TOOLS);
    const refused = await session.send(CARD, A);
    expect(refused?.refused).toBe(
      'The agent does not know yet which site the tab shows, so your message was not sent. Send it again once the page has loaded.',
    );
    expect(ran).toEqual([]);
    expect(session.snapshot().messages).toEqual([]);
    navigate(A);
    expect(await session.send('What is on my profile?', A)).toBeUndefined();
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(session.snapshot().sites).toEqual([A]);
  });

  it('while a run’s tab names no site, the model is shown no tools and every call is refused; the run ends when another site turns up', async () => {
    const model = scriptedModel([
      () => ({ id: 'c1', name: 'get_profile', input: {} }),
      () => ({ id: 'c2', name: 'lookup', input: { query: PROFILE } }),
      () => undefined,
    ]);
    // Reading the profile takes the tab on: the router names no top page yet, and lists the partner's frame tools.
    const controls: { pageUnknown?: (tools: TabToolEntry[]) => void } = {};
    const { session, ran, navigate, pageUnknown } = setup(model, {
      answer: (call) => {
        if (call.name === 'get_profile') controls.pageUnknown?.(PARTNER_TOOLS);
        return { content: [{ type: 'text', text: call.name === 'get_profile' ? PROFILE : `${call.name} ran` }] };
      },
    });
    controls.pageUnknown = pageUnknown;
    await session.send('What is on my profile?', A);
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(model.seen[1]).toEqual([]);
    const lookup = session
      .snapshot()
      .messages.flatMap((m) => m.parts)
      .find((p) => p.type === 'tool' && p.id === 'c2');
    expect(lookup).toMatchObject({
      state: 'error',
      error:
        "Error [tool_changed]: the tab's site is not known right now (its page may still be loading), and this run belongs to bank.example. Nothing was run.",
    });
    expect(session.snapshot().sites).toEqual([A]);

    // A run that meets another site once the page is known ends there.
    const crossing = scriptedModel([
      () => {
        navigate(B);
        return { id: 'c3', name: 'lookup', input: { query: PROFILE } };
      },
      () => undefined,
    ]);
    Object.assign(model, { run: crossing.run });
    navigate(A);
    await session.send('Again', A);
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(session.snapshot().lastRun?.code).toBe('site_changed');
  });

  it('a call made while the tab’s page loads waits for the router to name it: the run’s own site, and it runs; another, and the run ends there', async () => {
    const waitingForPage = (session: ReturnType<typeof setup>['session']) =>
      untilSnapshot(session, (snapshot) =>
        snapshot.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.prompt === 'Waiting for the tab’s page to load…'),
      );
    for (const [to, ranAfter, code] of [
      [A, ['get_profile', 'get_profile'], undefined],
      [B, ['get_profile'], 'site_changed'],
    ] as const) {
      const model = scriptedModel([
        () => ({ id: 'c1', name: 'get_profile', input: {} }),
        () => ({ id: 'c2', name: to === A ? 'get_profile' : 'lookup', input: { query: PROFILE } }),
        () => undefined,
      ]);
      const controls: { pageUnknown?: (tools: TabToolEntry[]) => void } = {};
      const { session, ran, navigate, pageUnknown } = setup(model, {
        answer: (call) => {
          // The first call starts a navigation: the router names no page until the next one reports.
          if (call.id === 'c1') controls.pageUnknown?.([]);
          return { content: [{ type: 'text', text: call.name === 'get_profile' ? PROFILE : `${call.name} ran` }] };
        },
      });
      controls.pageUnknown = pageUnknown;
      const sending = session.send('What is on my profile?', A);
      await waitingForPage(session);
      navigate(to);
      await session.refreshTools();
      await sending;
      expect(ran.map((c) => c.name)).toEqual(ranAfter);
      expect(session.snapshot().lastRun?.code).toBe(code);
    }
  });

  it('a tab that moves between the host’s check and the run’s start ends the run before the model, or the new site’s profile, hears of it', async () => {
    const model = scriptedModel([lookupCard(), () => undefined]);
    // Which profile each started run was given: none may start.
    const started: (string | undefined)[] = [];
    const adapter: AgentAdapter = {
      ...model,
      run: (req) => {
        started.push(req.agent?.id);
        return model.run(req);
      },
    };
    let reads = 0;
    const controls: { navigate?: (site: string) => void } = {};
    const { session, ran, navigate } = setup(adapter, {
      agent: { id: 'anyone', instructions: 'Always call lookup.' },
      // send reads the tab (the bank), then the run reads it again: the partner by then.
      beforeRead: () => {
        if (++reads === 2) controls.navigate?.(B);
      },
    });
    controls.navigate = navigate;
    expect(await session.send(CARD, A)).toBeUndefined();
    expect(started).toEqual([]);
    expect(ran).toEqual([]);
    expect(session.snapshot().lastRun?.code).toBe('site_changed');
    expect(session.snapshot().sites).toEqual([A]);
  });

  it('Retry does not start while the tab’s site is not known', async () => {
    const model = scriptedModel([() => undefined]);
    const { session, pageUnknown } = setup(model);
    await session.send('Hello', A);
    const before = model.seen.length;
    pageUnknown(PARTNER_TOOLS);
    await session.retry();
    expect(model.seen.length).toBe(before);
    expect(session.snapshot().lastRun).toEqual({ reason: 'error', error: SITE_UNKNOWN_RUN_ERROR });
    expect(session.snapshot().sites).toEqual([A]);
  });

  it('a question asked while the router names no page never names the site the panel bound as the page a frame sits in', async () => {
    const { session, pageUnknown } = setup(scriptedModel([]));
    const ads = { ...entry('https://ads.example', 'pay'), frameId: 2 };
    pageUnknown([ads]);
    const running = session.runByHand('pay', {}, 'hand-1');
    const question = await untilSnapshot(session, (s) => s.confirmations[0]);
    expect(question.prompt).toBe('Allow pay on ads.example? The site does not mark it as read-only.');
    session.confirm(question.id, 'deny');
    await running;
  });

  it('a desktop agent’s call runs nothing while the router names no page, whatever URL the panel bound', async () => {
    const { session, ran, pageUnknown } = setup(scriptedModel([]));
    pageUnknown(BANK_TOOLS);
    const controller = new AbortController();
    const { output, ran: reached } = await session.runForClient(
      { id: 'd1', name: 'get_profile', input: {} },
      { client: 'Claude Code', site: A, signal: controller.signal },
    );
    expect(reached).toBe(false);
    expect(ran).toEqual([]);
    expect(output.content[0]).toMatchObject({ text: expect.stringMatching(/^Error \[tool_changed\]: the tab is on another page now/) });
  });
});

describe('createTabSession with another origin’s frame inside the page', () => {
  // The partner's delegated frame inside the bank's page offers a read-only lookup.
  const frameLookup: TabToolEntry = { ...entry(B, 'lookup', readOnly), frameId: 2 };

  it('asks, showing the arguments and both origins, before the bank’s data goes to the frame’s read-only tool', async () => {
    const model = scriptedModel([() => ({ id: 'c1', name: 'get_profile', input: {} }), lookupWithEverything('c2'), () => undefined]);
    const { session, ran, asked } = setup(model, { bankTools: [...BANK_TOOLS, frameLookup] });
    const sending = session.send('What is on my profile?', A);
    const question = await asked();
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(question.prompt).toBe(
      'Allow lookup on partner.example (a frame inside bank.example)? This conversation holds what was read on bank.example; the arguments below would go to partner.example.',
    );
    expect(question.allowAlways).toBe(false);
    expect(question.input).toContain('078-05-1120');
    session.confirm(question.id, 'deny');
    await sending;
    expect(ran.map((c) => c.name)).toEqual(['get_profile']);
    expect(session.snapshot().sites).toEqual([A]);
  });

  it('holds what a sub-agent read in the frame: the site’s own read-only tool then asks too', async () => {
    const partner: WebAgent = { id: 'partner', name: 'Partner', tools: ['lookup'] };
    const agent: WebAgent = { id: 'bank', tools: ['get_profile'], subAgents: [partner] };
    const adapter: AgentAdapter = {
      id: 'scripted',
      label: 'Scripted',
      async *run(req) {
        await req.callTool({ id: 'c1', name: 'lookup', input: { query: 'offers' } }, ['partner']);
        await req.callTool({ id: 'c2', name: 'get_profile', input: {} });
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const { session, ran, asked } = setup(adapter, { agent, bankTools: [...BANK_TOOLS, frameLookup] });
    const sending = session.send('Any offers?', A);
    // The person's message was typed on the bank's page: the sub-agent's call to the frame asks.
    const first = await asked();
    expect(first.prompt).toMatch(
      /^Allow lookup on partner\.example \(a frame inside bank\.example\)\? This conversation holds what was read on bank\.example/,
    );
    session.confirm(first.id, 'allow-once');
    // What the frame returned is the partner's: the bank's read-only profile tool now asks before it runs.
    const second = await untilSnapshot(session, (s) => s.confirmations.find((c) => c.toolName === 'get_profile'));
    expect(ran.map((c) => c.name)).toEqual(['lookup']);
    expect(second.prompt).toBe(
      'Allow get_profile on bank.example? This conversation holds what was read on partner.example; the arguments below would go to bank.example.',
    );
    session.confirm(second.id, 'deny');
    await sending;
    expect(ran.map((c) => c.name)).toEqual(['lookup']);
    expect(session.snapshot().sites).toEqual([A, B]);
  });
});

describe('createTabSession runs only the tools offered', () => {
  const reviews: WebAgent = { id: 'reviews', name: 'Reviews', tools: ['read_reviews'] };
  const checkout: WebAgent = { id: 'checkout', name: 'Checkout', tools: ['check_out'] };
  const agent: WebAgent = { id: 'shop', tools: ['search'], subAgents: [reviews, checkout] };

  it('refuses names the calling agent was not offered, at any depth, before the page or the person hears of them', async () => {
    const tools = ['search', 'read_reviews', 'check_out', 'export_addresses', 'delete_account', 'delegate_to_checkout'];
    const results: Record<string, string> = {};
    const record = (id: string) => (output: ToolOutput) => {
      results[id] = output.content[0]?.type === 'text' ? output.content[0].text : '';
    };
    const adapter: AgentAdapter = {
      id: 'scripted',
      label: 'Scripted',
      async *run(req) {
        // The site's agent, then its reviews sub-agent (the path delegation gives its calls), as an obedient model would.
        for (const name of ['check_out', 'export_addresses', 'delete_account', 'read_reviews', 'delegate_to_checkout', 'search']) {
          record(`site:${name}`)(await req.callTool({ id: `site:${name}`, name, input: {} }));
        }
        for (const name of ['check_out', 'search', 'read_reviews']) {
          record(`reviews:${name}`)(await req.callTool({ id: `reviews:${name}`, name, input: {} }, ['reviews']));
        }
        record('made-up:read_reviews')(await req.callTool({ id: 'made-up:read_reviews', name: 'read_reviews', input: {} }, ['nobody']));
        yield { type: 'finish', reason: 'stop' };
      },
    };
    // The page has every one of these tools, all marked read-only (delegate_to_checkout is the page's own).
    const { session, ran, store } = setup(adapter, { agent, bankTools: tools.map((n) => entry(A, n, readOnly)) });
    await store.setConfirmationPolicy('never');
    await session.send('Buy everything', A);
    expect(ran.map((c) => c.name)).toEqual(['search', 'read_reviews']);
    expect(session.snapshot().confirmations).toEqual([]);
    for (const id of ['site:check_out', 'site:export_addresses', 'site:delete_account', 'site:read_reviews', 'site:delegate_to_checkout']) {
      expect(results[id], id).toMatch(
        /^Error \[unknown_tool\]: no tool named "\w+" is offered to you\. Available tools: search, delegate_to_reviews, delegate_to_checkout\.$/,
      );
    }
    expect(results['reviews:check_out']).toMatch(/^Error \[unknown_tool\].*Available tools: read_reviews\.$/);
    expect(results['reviews:search']).toMatch(/^Error \[unknown_tool\]/);
    expect(results['made-up:read_reviews']).toMatch(/^Error \[unknown_tool\].*Available tools: none\.$/);
  });

  it('still waits for a tool the agent may use that the page offers late', async () => {
    const adapter = scriptedModel([() => ({ id: 'c1', name: 'search', input: {} }), () => undefined]);
    const bankTools: TabToolEntry[] = [];
    const { session, ran } = setup(adapter, { agent, bankTools });
    const sending = session.send('Search', A);
    bankTools.push(entry(A, 'search', readOnly));
    await session.refreshTools();
    await sending;
    expect(ran.map((c) => c.name)).toEqual(['search']);
  });
});

describe('createTabSession with a call whose outcome is unknown', () => {
  it('tells the model and asks the person before the same tool runs again in the run, whatever the policy says', async () => {
    let payCalls = 0;
    const model = scriptedModel([
      () => ({ id: 'c1', name: 'pay', input: { amount: 5 } }),
      () => ({ id: 'c2', name: 'pay', input: { amount: 5 } }),
      () => undefined,
    ]);
    const { session, ran, store, asked } = setup(model, {
      bankTools: [...BANK_TOOLS, entry(A, 'pay')],
      answer: (call) => {
        if (call.name !== 'pay') return { content: [{ type: 'text', text: 'ok' }] };
        payCalls++;
        return {
          content: [{ type: 'text', text: 'Error [timeout]: The tool did not finish within 30000 ms; it was cancelled.' }],
          isError: true,
        };
      },
    });
    await store.setConfirmationPolicy('never');
    {
      const sending = session.send('Pay 5', A);
      const question = await asked();
      expect(payCalls).toBe(1);
      expect(question.allowAlways).toBe(false);
      expect(question.prompt).toMatch(/outcome unknown/);
      const first = session
        .snapshot()
        .messages.flatMap((m) => m.parts)
        .find((p) => p.type === 'tool' && p.id === 'c1');
      expect(first).toMatchObject({ state: 'error', error: expect.stringContaining(OUTCOME_UNKNOWN_NOTE) });
      session.confirm(question.id, 'deny');
      await sending;
      expect(ran.filter((c) => c.name === 'pay')).toHaveLength(1);
    }
  });
});
