import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../agent/types';
import type { EvalCase } from './eval-types';
import { measureToolRecall, type RecallSite, requiredTools } from './measure-tool-recall';

const tool = (name: string, description: string): ToolDescriptor => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});
const ask = (content: string, ...tools: string[]): EvalCase => ({
  messages: [{ role: 'user', type: 'message', content }],
  expectedCall: tools.map((functionName) => ({ functionName })),
});

const shop: RecallSite = {
  origin: 'https://shop.example',
  tools: [tool('get_cart', 'Read the cart.'), tool('search', 'Search products.')],
  cases: [ask('what is in my cart', 'get_cart'), ask('socks please', 'search')],
};
const notes: RecallSite = {
  origin: 'https://notes.example',
  tools: [tool('search', 'Search notes by text.'), tool('create_note', 'Write a new note.')],
  cases: [ask('search my notes for wifi', 'search')],
};

describe('measureToolRecall', () => {
  it("ranks each site's cases against its own tools, or all tools pooled under site-qualified names", () => {
    const perSite = measureToolRecall([shop, notes], { pooled: false, ks: [1, 2] });
    expect(perSite).toMatchObject({ sites: 2, tools: 2, cases: 3, expected: 3 });
    const pooled = measureToolRecall([shop, notes], { pooled: true, ks: [1, 4], missesAt: 1 });
    expect(pooled).toMatchObject({ tools: 4, cases: 3, expected: 3, recallAt: { 4: 1 } });
    // "socks please" matches no tool, so the shop's search keeps its page place (second) when pooled: a miss named
    // by the tool's own name and site.
    expect(pooled.misses.every((m) => m.rank > 1)).toBe(true);
    expect(pooled.misses.map((m) => [m.origin, m.tool])).toContainEqual(['https://shop.example', 'search']);
  });

  it("measures only the sites `only` keeps, against every site's tools, with the ranker it is given", () => {
    const onlyNotes = measureToolRecall([shop, notes], { pooled: true, ks: [1], only: (site) => site === notes });
    expect(onlyNotes).toMatchObject({ tools: 4, cases: 1, expected: 1 });
    const reversed = measureToolRecall([shop, notes], {
      pooled: true,
      ks: [1],
      rank: (tools, _query, options) => [...tools].reverse().slice(0, options?.max),
    });
    // The reversed pool puts notes' create_note first: no case's tool is first.
    expect(reversed.recallAt[1]).toBe(0);
  });

  it('ranks pooled tools as the loop gets them in a task: asked on the case’s own tab, from another tab, or by names only', () => {
    // "open it" matches no tool: the tab the person asks from decides, as the loop lists and favours its tools.
    const open = (origin: string) => ({
      origin,
      tools: [tool('open_item', 'Shows an item.')],
      cases: [ask('open it', 'open_item')],
    });
    const sites = [open('https://a.example'), open('https://b.example'), open('https://c.example')];
    expect(measureToolRecall(sites, { pooled: true, ks: [1] }).recallAt[1]).toBe(1);
    expect(measureToolRecall(sites, { pooled: true, askedFrom: 'other', ks: [1] }).recallAt[1]).toBe(0);
    // By names only, in the sites' order: only the first site's case finds its tool first.
    expect(measureToolRecall(sites, { pooled: true, askedFrom: 'none', ks: [1] }).recallAt[1]).toBeCloseTo(1 / 3);
    // The tab's title leads each pooled description, as the model reads it.
    const seen: string[] = [];
    measureToolRecall([{ ...open('https://a.example'), title: 'Items' }], {
      pooled: true,
      rank: (tools) => {
        seen.push(...tools.map((t) => t.description ?? ''));
        return [...tools];
      },
    });
    expect(seen).toEqual(['On a.example (tab “Items”): Shows an item.']);
  });

  it('passes the tools a case’s earlier turns called as recent ones, under the names the loop knows them by, and those turns’ words', () => {
    const followUp: EvalCase = {
      messages: [
        { role: 'user', type: 'message', content: 'socks' },
        { role: 'model', type: 'functioncall', name: 'search', arguments: { query: 'socks' } },
        { role: 'user', type: 'functionresponse', name: 'search', response: 'Three kinds.' },
        { role: 'user', type: 'message', content: 'only the blue ones' },
      ],
      expectedCall: [{ functionName: 'search' }],
    };
    const recents: (readonly string[] | undefined)[] = [];
    const earliers: (string | undefined)[] = [];
    const rank = (tools: readonly ToolDescriptor[], _query: string, options?: { recent?: readonly string[]; earlier?: string }) => {
      recents.push(options?.recent);
      earliers.push(options?.earlier);
      return [...tools];
    };
    const sites = [
      { ...shop, cases: [followUp] },
      { ...notes, cases: [] },
    ];
    measureToolRecall(sites, { pooled: true, rank });
    measureToolRecall([{ ...shop, cases: [followUp] }], { pooled: false, rank });
    // By names only, as recall was measured before the loop's context was: neither.
    measureToolRecall(sites, { pooled: true, askedFrom: 'none', rank });
    expect(recents).toEqual([['shop_example__search'], ['search'], []]);
    expect(earliers).toEqual(['socks', 'socks', '']);
  });

  it('throws when a case expects a tool its site does not have', () => {
    const broken = { ...shop, cases: [ask('check out', 'check_out')] };
    expect(() => measureToolRecall([broken], { pooled: true })).toThrow(/expects check_out, which the site does not have/);
  });
});

describe('requiredTools', () => {
  it('lists the distinct non-optional tools of nested groups in order', () => {
    expect(
      requiredTools([
        { functionName: 'search', optional: true },
        { unordered: [{ ordered: [{ functionName: 'open' }, { functionName: 'add' }] }, { functionName: 'open' }] },
        { functionName: 'check_out' },
      ]),
    ).toEqual(['open', 'add', 'check_out']);
  });
});
