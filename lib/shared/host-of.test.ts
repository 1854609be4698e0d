import { describe, expect, it } from 'vitest';
import { hostOf } from './host-of';

describe('hostOf', () => {
  it('reads the host and port of an origin or URL', () => {
    expect(hostOf('https://shop.example')).toBe('shop.example');
    expect(hostOf('http://127.0.0.1:8080/cart?x=1')).toBe('127.0.0.1:8080');
  });
  it('keeps text that is not a URL, and an origin without a host, as they are', () => {
    expect(hostOf('null')).toBe('null');
    expect(hostOf('data:text/plain,x')).toBe('data:text/plain,x');
  });
});
