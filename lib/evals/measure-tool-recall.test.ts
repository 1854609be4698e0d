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
