import { describe, expect, it } from 'vitest';
import { rankTools, tokenize } from './rank-tools';
import type { ToolDescriptor } from './types';

const tool = (name: string, description: string, params: string[] = [], title?: string): ToolDescriptor => ({
  name,
  description,
  ...(title ? { title } : {}),
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) },
});

const shop = [
  tool('get_store_hours', 'Opening hours of the store.'),
  tool('search_products', 'Search the catalog by keyword.', ['query']),
  tool('add_to_cart', 'Add a product to the shopping cart.', ['productId', 'quantity']),
  tool('view_cart', 'Show the items in the cart and the total.'),
  tool('book_table', 'Reserve a table at the restaurant.', ['date', 'partySize'], 'Book a table'),
  tool('contact_support', 'Send a message to customer support.', ['message']),
];
const names = (tools: ToolDescriptor[]) => tools.map((t) => t.name);

describe('rankTools', () => {
  it('puts the tools that match the request first', () => {
    expect(names(rankTools(shop, 'add the blue shoes to my cart', { max: 2 }))).toEqual(['add_to_cart', 'view_cart']);
    expect(names(rankTools(shop, 'search for running shoes', { max: 1 }))).toEqual(['search_products']);
  });

  it('matches titles and parameter names', () => {
    expect(names(rankTools(shop, 'I want to book for a party size of 4', { max: 1 }))).toEqual(['book_table']);
    expect(names(rankTools(shop, 'quantity three please', { max: 1 }))).toEqual(['add_to_cart']);
  });

  it('stems and matches prefixes', () => {
    expect(names(rankTools(shop, 'searching products', { max: 1 }))).toEqual(['search_products']);
    expect(names(rankTools(shop, 'reserv', { max: 1 }))).toEqual(['book_table']);
  });

  it('keeps at most max tools (8 by default), and the page order when nothing matches', () => {
    const many = Array.from({ length: 20 }, (_, i) => tool(`tool_${i}`, `Does thing ${i}.`));
    expect(rankTools(many, 'zzz')).toHaveLength(8);
    expect(names(rankTools(shop, 'hello there', { max: 3 }))).toEqual(['get_store_hours', 'search_products', 'add_to_cart']);
    expect(rankTools(shop, 'cart', { max: 0 })).toEqual([]);
  });

  it('gives recently used tools a bonus, most recent most', () => {
    expect(names(rankTools(shop, 'ok, and now?', { max: 2, recent: ['view_cart', 'contact_support'] }))).toEqual([
      'view_cart',
      'contact_support',
    ]);
    // A clear match still beats a recent tool that does not match.
    expect(names(rankTools(shop, 'search catalog keyword', { max: 1, recent: ['view_cart'] }))).toEqual(['search_products']);
  });

  it('returns compact copies for the prompt', () => {
    const noisy: ToolDescriptor = {
      name: 'find',
      title: 'Find',
      description: `Find things.\u0007 ${'very long '.repeat(100)}`,
      annotations: { readOnlyHint: true },
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { q: { $ref: '#/definitions/q' } },
        definitions: { q: { type: 'string', title: 'Q', examples: ['a'], description: 'What to find' } },
        additionalProperties: false,
      },
    };
    const [compact] = rankTools([noisy], 'find');
    expect(compact.description.length).toBeLessThanOrEqual(320);
    expect(compact.description).not.toContain('\u0007');
    expect(compact).not.toHaveProperty('title');
    expect(compact.inputSchema).toEqual({ type: 'object', properties: { q: { type: 'string', description: 'What to find' } } });
    expect(noisy.inputSchema.$schema).toBeDefined();
  });

  it("keeps the result's shape in the compact copy, after the cut description, and cleaned", () => {
    const typed: ToolDescriptor = {
      name: 'find',
      description: `Find things. ${'very long '.repeat(100)}`,
      inputSchema: { type: 'object', properties: {} },
      returns: '{hits\u200B: number}',
    };
    const [compact] = rankTools([typed], 'find');
    expect(compact.description).toMatch(/ Returns: \{hits: number\}$/);
    expect(compact).not.toHaveProperty('returns');
  });

  it('reads the tools it is given each time (a changed list is ranked afresh)', () => {
    expect(names(rankTools(shop.slice(0, 2), 'cart', { max: 1 }))).toEqual(['get_store_hours']);
    expect(names(rankTools(shop, 'cart', { max: 1 }))).toEqual(['view_cart']);
  });
});

describe('tokenize', () => {
  it('splits names and drops stopwords', () => {
    expect(tokenize('addToCart get_store_hours for the Categories')).toEqual(['add', 'cart', 'store', 'hour', 'category']);
  });
});
