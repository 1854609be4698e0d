import { describe, expect, it } from 'vitest';
import { webOriginOf } from './web-origin-of';

describe('webOriginOf', () => {
  it('reads the origin of a web URL', () => {
    expect(webOriginOf('https://Shop.Example:443/cart')).toBe('https://shop.example');
  });
  it('has none for nothing, for text that is not a URL, and for an opaque origin', () => {
    expect(webOriginOf(undefined)).toBeUndefined();
    expect(webOriginOf('not a url')).toBeUndefined();
    expect(webOriginOf('about:blank')).toBeUndefined();
    expect(webOriginOf('data:text/html,x')).toBeUndefined();
  });
});
