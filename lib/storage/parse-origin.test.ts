import { describe, expect, it } from 'vitest';
import { parseOrigin } from './parse-origin';

describe('parseOrigin', () => {
  it('normalises an origin the way URL.origin does', () => {
    expect(parseOrigin('  HTTPS://Shop.Example/ ')).toEqual({ ok: true, value: 'https://shop.example' });
    expect(parseOrigin('https://shop.example:443')).toEqual({ ok: true, value: 'https://shop.example' });
    expect(parseOrigin('http://127.0.0.1:8080')).toEqual({ ok: true, value: 'http://127.0.0.1:8080' });
  });

  it('explains what is wrong with anything that is not an http(s) origin', () => {
    const error = (input: string) => {
      const r = parseOrigin(input);
      return r.ok ? undefined : r.error;
    };
    expect(error('')).toBe('Enter an origin, for example https://shop.example.');
    expect(error('shop.example')).toBe('“shop.example” needs its scheme: write https://shop.example (or http:// for a local server).');
    expect(error('https://')).toMatch(/not a valid origin/);
    expect(error('ftp://shop.example')).toBe('The origin must start with https:// or http://, not ftp://.');
    expect(error('https://shop.example/products?q=1')).toBe('An origin has no path: use https://shop.example (without “/products?q=1”).');
    expect(error('https://me:pw@shop.example')).toMatch(/user name or password/);
  });

  it('names the example it is given', () => {
    const r = parseOrigin('', 'https://huggingface.co');
    expect(r.ok ? '' : r.error).toContain('https://huggingface.co');
  });
});

describe('parseOrigin without a scheme', () => {
  it('says the scheme is missing even when the text parses as some other URL', () => {
    const r = parseOrigin('localhost:8080');
    expect(r.ok ? '' : r.error).toBe('“localhost:8080” needs its scheme: write https://localhost:8080 (or http:// for a local server).');
  });
});

describe('parseOrigin with spaces', () => {
  it('does not suggest a scheme for text that cannot be a host', () => {
    const r = parseOrigin('not an origin');
    expect(r.ok ? '' : r.error).toBe('“not an origin” is not an origin: write it like https://shop.example.');
  });
});
