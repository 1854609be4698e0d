import { describe, expect, it } from 'vitest';
import { attestFrameSender } from './attest-frame-sender';

describe('attestFrameSender', () => {
  it('takes tab, frame, document, origin and URL from the browser sender (Chrome gives origin and documentId)', () => {
    expect(attestFrameSender({ tab: { id: 4 }, frameId: 2, documentId: 'D1', origin: 'http://a.test', url: 'http://a.test/p?q' })).toEqual({
      tabId: 4,
      frameId: 2,
      documentId: 'D1',
      origin: 'http://a.test',
      url: 'http://a.test/p?q',
    });
  });

  it('derives the origin from the URL when the browser gives none (older Firefox), opaque ones as "null"', () => {
    expect(attestFrameSender({ tab: { id: 1 }, frameId: 0, url: 'https://shop.example:8443/cart' })).toEqual({
      tabId: 1,
      frameId: 0,
      origin: 'https://shop.example:8443',
      url: 'https://shop.example:8443/cart',
    });
    expect(attestFrameSender({ tab: { id: 1 }, frameId: 3, url: 'about:blank' })?.origin).toBe('null');
    // about:blank inherits its creator's origin: the browser's origin wins over the URL.
    expect(attestFrameSender({ tab: { id: 1 }, frameId: 3, url: 'about:blank', origin: 'http://a.test' })?.origin).toBe('http://a.test');
  });

  it('is undefined for senders that are not a tab frame', () => {
    expect(attestFrameSender({ url: 'chrome-extension://x/sidepanel.html' })).toBeUndefined();
    expect(attestFrameSender({ tab: { id: 1 }, url: 'http://a.test/' })).toBeUndefined();
    expect(attestFrameSender({ tab: { id: 1 }, frameId: 0 })).toBeUndefined();
  });
});
