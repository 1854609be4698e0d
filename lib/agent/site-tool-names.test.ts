import { describe, expect, it } from 'vitest';
import { createToolNames, MAX_TOOL_NAME, siteLabel } from './site-tool-names';

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
  });

  it('labels a frame’s tool by the frame’s own origin, and never hands a name of one origin to another', () => {
    const names = createToolNames();
    const shop = 'https://shop.example';
    expect(names.nameOf({ tabId: 1, site: shop, tool: 'lookup', origin: 'https://ads.example' })).toBe('ads_example__lookup');
    expect(names.nameOf({ tabId: 1, site: shop, tool: 'pay', origin: 'null' })).toBe('sandboxed_frame__pay');
    // The same model-facing name, now owned by another frame's origin, is another tool with another name.
    expect(names.nameOf({ tabId: 1, site: shop, tool: 'lookup', origin: 'https://tracker.example' })).toBe('tracker_example__lookup');
    expect(names.nameOf({ tabId: 1, site: shop, tool: 'lookup' })).toBe('shop_example__lookup');
    // ads.example shared as a site of its own gets the next number, not the frame's name.
    expect(names.nameOf({ tabId: 2, site: 'https://ads.example', tool: 'lookup' })).toBe('ads_example_2__lookup');
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
