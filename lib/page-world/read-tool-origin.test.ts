import { describe, expect, it } from 'vitest';
import { readToolOrigin } from './read-tool-origin';

const refusal = (origin: string) => {
  try {
    readToolOrigin(origin, URL);
  } catch (error) {
    return `${(error as DOMException).name}: ${(error as DOMException).message}`;
  }
  return 'accepted';
};

describe('readToolOrigin', () => {
  it('reads the origin of any URL, whatever its path or case', () => {
    expect(readToolOrigin('https://shop.example', URL)).toBe('https://shop.example');
    expect(readToolOrigin('https://shop.example/any/path?q#h', URL)).toBe('https://shop.example');
    expect(readToolOrigin('HTTPS://SHOP.EXAMPLE:443', URL)).toBe('https://shop.example');
    expect(readToolOrigin('http://localhost:8080/', URL)).toBe('http://localhost:8080');
  });

  it('refuses what is no URL, and a URL of an opaque origin, with NotSupportedError', () => {
    for (const origin of ['http://localhost:999999', 'not a url', '', 'http://[::', 'null']) {
      expect([origin, refusal(origin)]).toEqual([origin, 'NotSupportedError: The provided origin is invalid.']);
    }
    for (const origin of ['data:,x', 'about:blank']) {
      expect([origin, refusal(origin)]).toEqual([
        origin,
        'NotSupportedError: Cannot execute tools that live in a document with an opaque origin.',
      ]);
    }
  });
});
