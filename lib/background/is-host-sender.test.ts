import { describe, expect, it } from 'vitest';
import { isHostSender } from './is-host-sender';

describe('isHostSender', () => {
  const id = 'abcdefghijklmnopabcdefghijklmnop';
  const origin = `chrome-extension://${id}/`;
  it('accepts the extension own pages', () => {
    expect(isHostSender({ id, url: `${origin}offscreen.html` }, id, origin)).toBe(true);
    expect(isHostSender({ id, url: `${origin}sidepanel.html?tab=3` }, id, origin)).toBe(true);
  });
  it('refuses content scripts (page URLs), other extensions and look-alike URLs', () => {
    expect(isHostSender({ id, url: 'https://shop.example/' }, id, origin)).toBe(false);
    expect(isHostSender({ id: 'other', url: `${origin}offscreen.html` }, id, origin)).toBe(false);
    expect(isHostSender({ id, url: `chrome-extension://${id}evil/x.html` }, id, origin)).toBe(false);
    expect(isHostSender({ id }, id, origin)).toBe(false);
  });
});
