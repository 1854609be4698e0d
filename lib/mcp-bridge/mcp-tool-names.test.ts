import { describe, expect, it } from 'vitest';
import { createToolNames, MAX_TOOL_NAME, siteLabel } from './mcp-tool-names';

describe('tool names for desktop agents', () => {
  it('labels a site by its host and port, without www., from letters, digits and underscores', () => {
    expect(siteLabel('https://www.Shop.example')).toBe('shop_example');
    expect(siteLabel('http://127.0.0.1:5174')).toBe('127_0_0_1_5174');
    expect(siteLabel('https://xn--bcher-kva.example')).toBe('xn_bcher_kva_example');
  });

  it('names <site>__<tool>, keeps a name while its tab keeps the tool, and numbers a second tab of the site', () => {
    const names = createToolNames();
    const first = names.nameOf({ tabId: 1, site: 'https://shop.example', tool: 'add_to_cart' });
    expect(first).toBe('shop_example__add_to_cart');
    expect(names.nameOf({ tabId: 2, site: 'https://shop.example', tool: 'add_to_cart' })).toBe('shop_example_2__add_to_cart');
    expect(names.nameOf({ tabId: 1, site: 'https://shop.example', tool: 'add_to_cart' })).toBe(first);
    // The same tab on another site is another tool: never the old name.
    expect(names.nameOf({ tabId: 1, site: 'https://shop.example:8443', tool: 'add_to_cart' })).toBe('shop_example_8443__add_to_cart');
    expect(names.lookup(first)).toEqual({ tabId: 1, site: 'https://shop.example', tool: 'add_to_cart' });
    expect(names.lookup('nope')).toBeUndefined();
  });

  it('stays within 64 characters of [a-zA-Z0-9_-], and unique when cut', () => {
    const names = createToolNames();
    const long = 'x'.repeat(80);
    const a = names.nameOf({ tabId: 1, site: 'https://a-very-long-host-name-of-a-site.example', tool: long });
    const b = names.nameOf({ tabId: 2, site: 'https://a-very-long-host-name-of-a-site.example', tool: long });
    for (const name of [a, b]) {
      expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
      expect(name).toMatch(/^[a-zA-Z0-9_-]+$/);
    }
    expect(a).not.toBe(b);
  });
});
