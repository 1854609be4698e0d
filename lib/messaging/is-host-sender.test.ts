import { describe, expect, it } from 'vitest';
import { isHostSender } from './is-host-sender';

describe('isHostSender', () => {
  const id = 'abcdefghijklmnopabcdefghijklmnop';
  const origin = `chrome-extension://${id}/`;
  it('accepts the extension own pages, also a panel open in a tab', () => {
    expect(isHostSender({ id, url: `${origin}offscreen.html` }, id, origin)).toBe(true);
    expect(isHostSender({ id, url: `${origin}sidepanel.html?tab=3`, origin: origin.slice(0, -1) }, id, origin)).toBe(true);
    expect(isHostSender({ id, url: 'moz-extension://u-u-i-d/sidebar.html', envType: 'addon_child' }, id, 'moz-extension://u-u-i-d/')).toBe(
      true,
    );
  });
  it('refuses content scripts (page URLs), other extensions and look-alike URLs', () => {
    expect(isHostSender({ id, url: 'https://shop.example/' }, id, origin)).toBe(false);
    expect(isHostSender({ id: 'other', url: `${origin}offscreen.html` }, id, origin)).toBe(false);
    expect(isHostSender({ id, url: `chrome-extension://${id}evil/x.html` }, id, origin)).toBe(false);
    expect(isHostSender({ id }, id, origin)).toBe(false);
    expect(isHostSender(undefined, id, origin)).toBe(false);
  });
  it('refuses a sender the browser attests as a content script, whatever its URL says', () => {
    // Firefox names the context; Chromium gives the sending document's origin.
    expect(isHostSender({ id, url: `${origin}sidepanel.html`, envType: 'content_child' }, id, origin)).toBe(false);
    expect(isHostSender({ id, url: `${origin}sidepanel.html`, origin: 'https://shop.example' }, id, origin)).toBe(false);
  });
});
