import { describe, expect, it } from 'vitest';
import { isPotentiallyTrustworthyUrl } from './is-potentially-trustworthy-url';

const trustworthy = (text: string) => isPotentiallyTrustworthyUrl(text, URL);

describe('isPotentiallyTrustworthyUrl', () => {
  it('takes the secure schemes and loopback hosts Chromium 156 takes', () => {
    for (const text of [
      'https://example.com',
      'https://example.com:8443/path?q#h',
      'HTTPS://EXAMPLE.COM',
      ' https://example.com ',
      'wss://example.com',
      'file:///tmp/x',
      'http://localhost:1234',
      'http://LOCALHOST',
      'http://shop.localhost',
      'http://localhost.',
      'http://a.localhost.',
      'ws://localhost',
      'http://127.0.0.1',
      'http://127.8.9.10:80',
      'http://2130706433',
      'http://127.1',
      'http://[::1]:8080',
      'http://[0:0:0:0:0:0:0:1]',
      'http://user:pw@localhost',
      'blob:https://example.com/id',
      'blob:file:///x',
      'filesystem:https://example.com/temporary/',
      'chrome-extension://abcdefghijklmnop/page.html',
      'chrome://settings',
      'devtools://devtools',
      'isolated-app://x',
    ]) {
      expect([text, trustworthy(text)]).toEqual([text, true]);
    }
  });

  it('refuses other schemes, other hosts, opaque origins and what does not parse', () => {
    for (const text of [
      'http://example.com',
      'ws://example.com',
      'ftp://example.com',
      'not a url',
      '',
      '/relative/path',
      'https://',
      'https:',
      'data:,text',
      'about:blank',
      'javascript:void(0)',
      'blob:http://example.com/id',
      'blob:blob:https://example.com/id',
      'filesystem:http://example.com/temporary/',
      'http://0.0.0.0',
      'http://[::2]',
      'http://[::ffff:127.0.0.1]',
      'http://localhost.example',
      'http://localhost.localdomain',
      'http://127.0.0.1.example',
      'web+app:thing',
      'moz-extension://x',
    ]) {
      expect([text, trustworthy(text)]).toEqual([text, false]);
    }
  });
});
