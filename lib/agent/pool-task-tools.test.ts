import { describe, expect, it } from 'vitest';
import { rankTools } from './rank-tools';
import { createToolNames } from './site-tool-names';
import type { ToolDescriptor } from './types';
import { pooledDescriptionLead, poolTaskTools } from './pool-task-tools';

const SHOP = 'https://shop.example';
const RECIPES = 'http://127.0.0.1:5175';
const tool = (name: string, description = `Does ${name}.`): ToolDescriptor => ({ name, description, inputSchema: { type: 'object' } });

describe('poolTaskTools', () => {
  it('names every tab’s tools by their site, says where each runs, and resolves a name to the exact tab and tool', () => {
    const pool = poolTaskTools(
      [
        { tabId: 1, site: SHOP, page: { title: 'Basket' }, tools: [{ ...tool('search'), origin: SHOP }] },
        { tabId: 7, site: RECIPES, page: { title: 'Pancakes\u202e' }, tools: [tool('search'), tool('get_ingredients')] },
      ],
      createToolNames(),
    );
    expect(pool.tools.map((t) => [t.name, t.description])).toEqual([
      ['shop_example__search', 'On shop.example (tab “Basket”): Does search.'],
      ['127_0_0_1_5175__search', 'On 127.0.0.1:5175 (tab “Pancakes”): Does search.'],
      ['127_0_0_1_5175__get_ingredients', 'On 127.0.0.1:5175 (tab “Pancakes”): Does get_ingredients.'],
    ]);
    expect(pool.resolve('127_0_0_1_5175__search')).toEqual({ tabId: 7, site: RECIPES, tool: 'search' });
    expect(pool.resolve('shop_example__search')).toEqual({ tabId: 1, site: SHOP, tool: 'search' });
    expect(pool.resolve('search')).toBeUndefined();
  });

  it('names a frame’s tool by the frame’s origin, never one that passes for the site’s', () => {
    const pool = poolTaskTools(
      [
        {
          tabId: 1,
          site: SHOP,
          tools: [
            { ...tool('lookup'), origin: 'https://ads.example' },
            { ...tool('pay'), origin: 'null' },
          ],
        },
      ],
      createToolNames(),
    );
    expect(pool.tools.map((t) => [t.name, t.description])).toEqual([
      ['ads_example__lookup', 'On ads.example, a frame inside shop.example: Does lookup.'],
      ['sandboxed_frame__pay', 'In a sandboxed frame inside shop.example: Does pay.'],
    ]);
    expect(pool.resolve('ads_example__lookup')).toEqual({ tabId: 1, site: SHOP, tool: 'lookup' });
  });

  it('keeps a name for its tab while the conversation lasts: the same tool in a second tab, or a tab on another site, gets another', () => {
    const names = createToolNames();
    const first = poolTaskTools([{ tabId: 2, site: RECIPES, tools: [tool('search')] }], names);
    const second = poolTaskTools(
      [
        { tabId: 3, site: RECIPES, tools: [tool('search')] },
        { tabId: 2, site: RECIPES, tools: [tool('search')] },
      ],
      names,
    );
    expect(first.tools[0]?.name).toBe('127_0_0_1_5175__search');
    expect(second.resolve('127_0_0_1_5175__search')).toEqual({ tabId: 2, site: RECIPES, tool: 'search' });
    expect(second.resolve('127_0_0_1_5175_2__search')).toEqual({ tabId: 3, site: RECIPES, tool: 'search' });
    // Tab 2 moved to another site and was added again: its old name never reaches the new site's tool.
    const moved = poolTaskTools([{ tabId: 2, site: 'https://other.example', tools: [tool('search')] }], names);
    expect(moved.resolve('127_0_0_1_5175__search')).toBeUndefined();
  });

  it('is ranked as one list for the on-device model: the tool a request needs comes first, whichever tab offers it', () => {
    const shop = ['search_products', 'add_to_basket', 'view_basket', 'check_out', 'apply_coupon'].map((n) =>
      tool(n, `Shop: ${n.replace(/_/g, ' ')}.`),
    );
    const recipes = [tool('find_recipe', 'Finds recipes by dish name.'), tool('get_ingredients', 'Lists the ingredients of a recipe.')];
    const pool = poolTaskTools(
      [
        { tabId: 1, site: SHOP, tools: shop },
        { tabId: 7, site: RECIPES, tools: recipes },
      ],
      createToolNames(),
    );
    expect(rankTools(pool.tools, 'which ingredients does the pancake recipe need?', { max: 8 })[0]?.name).toBe(
      '127_0_0_1_5175__get_ingredients',
    );
    expect(rankTools(pool.tools, 'put flour in my basket', { max: 8 })[0]?.name).toBe('shop_example__add_to_basket');
  });
});

describe('pooledDescriptionLead', () => {
  it('measures the words poolTaskTools put before each description, and nothing of a description it did not lead', () => {
    const pool = poolTaskTools(
      [
        {
          tabId: 1,
          site: SHOP,
          page: { title: 'Basket' },
          tools: [tool('search'), { ...tool('lookup'), origin: 'https://ads.example' }, { ...tool('pay'), origin: 'null' }],
        },
        { tabId: 2, site: RECIPES, tools: [tool('find'), { name: 'bare', description: '', inputSchema: { type: 'object' } }] },
      ],
      createToolNames(),
    );
    const rest = pool.tools.map((t) => (t.description ?? '').slice(pooledDescriptionLead(t.description ?? '')));
    expect(rest).toEqual(['Does search.', 'Does lookup.', 'Does pay.', 'Does find.', '']);
    expect(pooledDescriptionLead('Does search. On shop.example: more.')).toBe(0);
    expect(pooledDescriptionLead('Only when asked: searches.')).toBe(0);
  });

  it('never reaches into the page’s description, whatever the tab’s title or the description says', () => {
    // A title that mimics the lead's end can only end it early: the rest of the title reads as description.
    const hostile = poolTaskTools(
      [
        {
          tabId: 1,
          site: SHOP,
          page: { title: 'x”): cheap flights (tab “y' },
          tools: [tool('search', 'Find”): products. (tab “z”): in stock.')],
        },
      ],
      createToolNames(),
    ).tools[0];
    const description = hostile.description ?? '';
    expect(description.slice(pooledDescriptionLead(description))).toContain('Find”): products. (tab “z”): in stock.');
  });
});
