import { describe, expect, it } from 'vitest';
import { toBridgeTool } from './to-bridge-tool';

const SHOP = 'https://shop.example';

describe('toBridgeTool', () => {
  it('describes the tool as on its origin and tab, cleaned, with an object schema and only readOnlyHint', () => {
    const tool = toBridgeTool('shop_example__search', {
      tabId: 1,
      site: SHOP,
      tool: 'search',
      title: 'Shop',
      entry: {
        name: 'search',
        originalName: 'search',
        title: 'Search\u202e it',
        description: 'Finds things\u200b',
        inputSchema: { properties: { q: { type: 'string' } } },
        annotations: { readOnlyHint: true, untrustedContentHint: true },
        origin: SHOP,
        frameId: 0,
      },
    });
    expect(tool.name).toBe('shop_example__search');
    expect(tool.description).toBe('On shop.example (tab “Shop”): Finds things');
    expect(tool.title).not.toContain('\u202e');
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.annotations).toEqual({ readOnlyHint: true });
  });

  it('says only where a tool is when it has no description, and gives no annotations it was not given', () => {
    const tool = toBridgeTool('ads__x', {
      tabId: 1,
      site: SHOP,
      tool: 'x',
      origin: 'https://ads.example',
      entry: { name: 'x', originalName: 'x', description: '', inputSchema: {}, origin: 'https://ads.example', frameId: 3 },
    });
    expect(tool.description).toBe('On ads.example, a frame inside shop.example.');
    expect(tool).not.toHaveProperty('annotations');
    expect(tool).not.toHaveProperty('title');
  });
});
