import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { isAbove, runAudit } from './run-audit';

const NOW = new Date('2026-12-01T10:00:00Z');

/** The demo shop's tools (demo/tools.js, demo/index.html), as the panel knows them. */
const SHOP = [
  panelTool({
    name: 'search_products',
    title: 'Search products',
    description:
      'Search the shop\'s catalog by words (for example "rain jacket" or "mug"). Returns matching products with their id, price and sizes. Use an empty query to list everything.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for in product names and descriptions.' },
        maxResults: { type: 'integer', minimum: 1, maximum: 20, description: 'At most this many products (default 8).' },
      },
      required: ['query'],
    },
  }),
  panelTool({
    name: 'get_cart',
    title: 'Read the cart',
    description: 'Read the cart: its lines (product, size, quantity, price) and the subtotal.',
    inputSchema: { type: 'object', properties: {} },
  }),
  panelTool({
    name: 'check_out',
    title: 'Check out',
    description:
      'Place the order for everything in the cart and empty it. This buys the items: only call it when the person asked to check out.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: "The buyer's full name." },
        email: { type: 'string', format: 'email', description: 'Where the order confirmation goes.' },
      },
      required: ['name', 'email'],
    },
    annotations: { consequentialHint: true },
  }),
  panelTool({
    name: 'subscribe_newsletter',
    description: 'Subscribe an email address to the Fern & Field newsletter (new arrivals and repair tips), weekly or monthly.',
    inputSchema: {
      type: 'object',
      properties: {
        email: { type: 'string', description: 'The email address to subscribe.' },
        frequency: { type: 'string', enum: ['Weekly', 'Monthly'], description: 'How often to send the newsletter: Weekly or Monthly.' },
      },
      required: ['email'],
    },
    annotations: undefined,
    declarative: true,
  }),
];

describe('runAudit', () => {
  it('finds nothing on a well-made shop, and says what it looked at', () => {
    const report = runAudit({ tools: SHOP, forms: [], results: [] }, { url: 'http://127.0.0.1/demo/', title: 'Fern & Field' }, NOW);
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({
      format: 'webmcp-agent-audit-report',
      page: { url: 'http://127.0.0.1/demo/', title: 'Fern & Field' },
      auditedAt: '2026-12-01T10:00:00.000Z',
      looked: { tools: 4, frames: 1, forms: 0, results: 0, examples: 0 },
      counts: { error: 0, warning: 0, info: 0 },
    });
  });

  it('runs every check, most serious first, then by tool and rule, and counts them', () => {
    const report = runAudit(
      {
        tools: [
          panelTool({ name: 'zap', description: 'Zap.', annotations: {} }),
          panelTool({ name: 'delete_account', description: 'Deletes the account.', annotations: {} }),
        ],
        forms: [
          {
            frameId: 0,
            origin: 'https://shop.example',
            forms: [
              {
                label: '#search',
                hasDescription: false,
                autosubmit: false,
                fields: [{ name: 'q', type: 'text', label: '', described: false }],
              },
            ],
          },
        ],
      },
      {},
      NOW,
    );
    expect(report.findings.map((f) => [f.severity, f.tool, f.rule])).toEqual([
      ['error', 'delete_account', 'annotation/consequential-missing'],
      ['warning', 'zap', 'description/one-word'],
      ['info', undefined, 'form/not-a-tool'],
    ]);
    expect(report.counts).toEqual({ error: 1, warning: 1, info: 1 });
  });

  it('tells the author of an unannotated shop on the 2025 API what they would want to know', () => {
    const tool = (name: string, description: string) =>
      panelTool({ name, description, annotations: undefined, legacyApi: 'navigator.modelContext' });
    const report = runAudit(
      {
        tools: [
          tool('search_products', 'Search the print products by keyword.'),
          tool('get_quote', 'Get a price quote for a print job.'),
          tool('add_to_cart', 'Add a print job to the cart.'),
        ],
        forms: [],
      },
      {},
      NOW,
    );
    expect(report.findings.map((f) => [f.severity, f.tool, f.rule])).toEqual([
      ['warning', 'get_quote', 'annotation/read-only-missing'],
      ['warning', 'search_products', 'annotation/read-only-missing'],
      ['warning', undefined, 'api/legacy-navigator'],
    ]);
  });

  it('says so when the page has no tools, where it used to say "No findings"', () => {
    const report = runAudit({ tools: [], forms: [{ frameId: 0, origin: 'https://plain.example', forms: [] }], results: [] }, {}, NOW);
    expect(report.findings.map((f) => [f.severity, f.rule])).toEqual([['info', 'page/no-tools']]);
    expect(report.counts).toEqual({ error: 0, warning: 0, info: 1 });
  });
});

describe('isAbove', () => {
  it('orders error above warning above info', () => {
    expect(isAbove('error', 'warning')).toBe(true);
    expect(isAbove('warning', 'warning')).toBe(false);
    expect(isAbove('warning', 'info')).toBe(true);
    expect(isAbove('info', 'info')).toBe(false);
    expect(isAbove('info', 'error')).toBe(false);
  });
});
