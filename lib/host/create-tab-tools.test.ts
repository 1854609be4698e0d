import { describe, expect, it } from 'vitest';
import type { TabToolEntry, TabToolSnapshot } from '../messaging/tab-tool-snapshot';
import type { HostRouterClient } from './agent-host-deps';
import { createTabTools, UNKNOWN_TOOL_WAIT_MS } from './create-tab-tools';

const entry = (name: string, origin = 'https://shop.example', frameId = 0): TabToolEntry => ({
  name,
  originalName: name.replace(/_2$/, ''),
  description: name,
  inputSchema: { type: 'object' },
  origin,
  frameId,
});

/** A bridge whose snapshot the test sets, telling subscribers as the router's pushes do. */
function bridge(tools: TabToolEntry[]) {
  let snapshot: TabToolSnapshot = { tabId: 1, tools, page: { url: 'https://shop.example/cart', title: 'Cart' } };
  const listeners = new Set<(tabId: number) => void>();
  return {
    set(next: TabToolEntry[]) {
      snapshot = { ...snapshot, tools: next };
      for (const l of listeners) l(1);
    },
    port: {
      getTools: async () => snapshot,
      callTool: async () => ({ content: [] }),
      subscribe: (l: (tabId: number) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    } satisfies HostRouterClient,
  };
}

describe('createTabTools', () => {
  it('reads the snapshot: tools, who each is for the policy, the page agent, and what the agent offers', async () => {
    const b = bridge([entry('search'), entry('pay'), entry('pay_2', 'https://ads.example', 3)]);
    const tools = createTabTools({
      tabId: 1,
      bridge: b.port,
      settings: {
        siteAgentFor: async (url) => (url === 'https://shop.example/cart' ? { id: 'shop', tools: ['search', 'pay'] } : undefined),
      },
      onChange: () => {},
    });
    expect(tools.known()).toBe(false);
    await tools.refresh();
    expect(tools.known()).toBe(true);
    expect(tools.names()).toEqual(['search', 'pay', 'pay_2']);
    expect(tools.identity('pay_2')).toEqual({ origin: 'https://ads.example', originalName: 'pay' });
    expect(tools.forModel().map((t) => t.name)).toEqual(['search', 'pay']);
    expect(tools.offered('pay_2')).toBeUndefined();
    expect(tools.find('pay_2')?.frameId).toBe(3);
    expect(tools.forPanel()[1]).toMatchObject({ name: 'pay', originalName: 'pay', origin: 'https://shop.example', frameId: 0 });
  });

  it("gives the model a tool's outputSchema as the one-line shape of its result, and no schema it does not declare", async () => {
    const typed = { ...entry('search'), outputSchema: { type: 'object', required: ['hits'], properties: { hits: { type: 'number' } } } };
    const b = bridge([typed, entry('pay')]);
    const tools = createTabTools({
      tabId: 1,
      bridge: b.port,
      settings: { siteAgentFor: async () => undefined },
      onChange: () => {},
    });
    await tools.refresh();
    const [search, pay] = tools.forModel();
    expect(search.returns).toBe('{hits: number}');
    expect(search).not.toHaveProperty('outputSchema');
    expect(pay).not.toHaveProperty('returns');
    expect(tools.forPanel()[0]).toMatchObject({ returns: '{hits: number}', outputSchema: typed.outputSchema });
  });

  it('never offers the model a debugging tool; the panel lists it, and the person can run it (offered)', async () => {
    const debug = { ...entry('dump_state'), annotations: { debugging: true } };
    const tools = createTabTools({
      tabId: 1,
      bridge: bridge([entry('search'), debug]).port,
      settings: { siteAgentFor: async () => undefined },
      onChange: () => {},
    });
    await tools.refresh();
    expect(tools.forModel().map((t) => t.name)).toEqual(['search']);
    expect(tools.forPanel().map((t) => [t.name, t.annotations?.debugging])).toEqual([
      ['search', undefined],
      ['dump_state', true],
    ]);
    expect(tools.offered('dump_state')?.name).toBe('dump_state');
  });

  it('tells the panel which tools came through the 2025 API, and never the model', async () => {
    const b = bridge([{ ...entry('get_quote'), legacyApi: 'navigator.modelContext' }, entry('search')]);
    const tools = createTabTools({
      tabId: 1,
      bridge: b.port,
      settings: { siteAgentFor: async () => undefined },
      onChange: () => {},
    });
    await tools.refresh();
    expect(tools.forPanel().map((t) => t.legacyApi)).toEqual(['navigator.modelContext', undefined]);
    expect(tools.forModel()[0]).not.toHaveProperty('legacyApi');
  });

  it('waits for a tool the page offers a moment later, and no longer than UNKNOWN_TOOL_WAIT_MS for one it never offers', async () => {
    const b = bridge([entry('search')]);
    const tools = createTabTools({
      tabId: 1,
      bridge: b.port,
      settings: { siteAgentFor: async () => undefined },
      onChange: () => {},
    });
    await tools.refresh();
    const waiting = tools.waitFor('filter_results', new AbortController().signal);
    b.set([entry('search'), entry('filter_results')]);
    await tools.refresh();
    expect((await waiting)?.name).toBe('filter_results');

    const started = Date.now();
    expect(await tools.waitFor('made_up', new AbortController().signal)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(UNKNOWN_TOOL_WAIT_MS - 50);
    const stop = new AbortController();
    const stopped = tools.waitFor('made_up', stop.signal);
    stop.abort();
    expect(await stopped).toBeUndefined();
  });

  it('a tab that could not be read shows no page and offers nothing: what it showed before does not stand in for it', async () => {
    const b = bridge([entry('search')]);
    let fail = false;
    const tools = createTabTools({
      tabId: 1,
      bridge: { ...b.port, getTools: async () => (fail ? Promise.reject(new Error('no receiver')) : b.port.getTools()) },
      settings: { siteAgentFor: async () => undefined },
      onChange: () => {},
    });
    await tools.refresh();
    expect(tools.page()?.url).toBe('https://shop.example/cart');
    fail = true;
    await tools.refresh();
    expect(tools.known()).toBe(true);
    expect(tools.page()).toBeUndefined();
    expect(tools.names()).toEqual([]);
    expect(tools.identity('search')).toBeUndefined();
  });

  it('takes the page agent of the page the router names only: none while it names none, and a slower read never puts its page’s agent on a newer page', async () => {
    const bank = 'https://bank.example/account';
    const partner = 'https://partner.example/';
    let snapshot: TabToolSnapshot = { tabId: 1, tools: [entry('get_profile', 'https://bank.example')], page: {} };
    let releaseBank: () => void = () => undefined;
    const tools = createTabTools({
      tabId: 1,
      bridge: { getTools: async () => snapshot, callTool: async () => ({ content: [] }), subscribe: () => () => {} },
      settings: {
        siteAgentFor: async (url) => {
          if (url === bank) {
            await new Promise<void>((resolve) => (releaseBank = resolve));
            return { id: 'bank', tools: ['get_profile'] };
          }
          return url === partner ? { id: 'partner' } : { id: 'anyone' };
        },
      },
      onChange: () => {},
    });
    await tools.refresh();
    expect(tools.agent()).toBeUndefined();
    snapshot = { ...snapshot, page: { url: bank } };
    const slow = tools.refresh();
    snapshot = { tabId: 1, tools: [entry('lookup', 'https://partner.example')], page: { url: partner } };
    await tools.refresh();
    releaseBank();
    await slow;
    expect(tools.page()?.url).toBe(partner);
    expect(tools.agent()).toEqual({ id: 'partner' });
  });

  it('follows the bridge by itself: one look per change told, and a call reads the view after it without looking again', async () => {
    const b = bridge([entry('search')]);
    let looks = 0;
    const port = {
      ...b.port,
      getTools: () => {
        looks++;
        return b.port.getTools();
      },
    };
    const tools = createTabTools({ tabId: 1, bridge: port, settings: { siteAgentFor: async () => undefined }, onChange: () => {} });
    // Never read: the first current() looks once.
    await tools.current();
    expect([looks, tools.names()]).toEqual([1, ['search']]);
    // Nothing changed: no look.
    await tools.current();
    expect(looks).toBe(1);
    // A change told (a call's answer, a push) is looked at at once; current() waits for that look.
    b.set([entry('search'), entry('check_out')]);
    await tools.current();
    expect([looks, tools.names()]).toEqual([2, ['search', 'check_out']]);
    // Another tab's change is not this view's; a closed view follows nothing.
    tools.close();
    b.set([entry('search')]);
    await tools.current();
    expect([looks, tools.names()]).toEqual([2, ['search', 'check_out']]);
  });

  it('shows nothing the bridge told of before what it waits for (the stored conversation) is read', async () => {
    const b = bridge([entry('search')]);
    let release!: () => void;
    const after = new Promise<void>((resolve) => (release = resolve));
    let changes = 0;
    const tools = createTabTools({
      tabId: 1,
      bridge: b.port,
      settings: { siteAgentFor: async () => undefined },
      onChange: () => changes++,
      after,
    });
    b.set([entry('search'), entry('pay')]);
    await new Promise((r) => setTimeout(r, 5));
    expect([changes, tools.known()]).toEqual([0, false]);
    release();
    await tools.current();
    expect([changes, tools.names()]).toEqual([1, ['search', 'pay']]);
  });
});
