import { describe, expect, it } from 'vitest';
import { parseHttpUrl } from './parse-http-url';

const words = {
  aNoun: 'a URL',
  noun: 'URL',
  subject: 'The base URL',
  example: 'https://api.example.com/v1',
  credentials: 'No credentials.',
};

describe('parseHttpUrl', () => {
  it('gives the parsed URL for http and https', () => {
    const parsed = parseHttpUrl('http://127.0.0.1:11434/v1', words);
    expect(parsed.ok && parsed.value.href).toBe('http://127.0.0.1:11434/v1');
  });

  it('says what is wrong in the words of the field', () => {
    expect(parseHttpUrl('localhost:11434', words)).toEqual({
      ok: false,
      error: '“localhost:11434” needs its scheme: write https://localhost:11434 (or http:// for a local server).',
    });
    expect(parseHttpUrl('my server', words)).toEqual({
      ok: false,
      error: '“my server” is not a URL: write it like https://api.example.com/v1.',
    });
    expect(parseHttpUrl('https://', words)).toEqual({
      ok: false,
      error: '“https://” is not a valid URL: write it like https://api.example.com/v1.',
    });
    expect(parseHttpUrl('ftp://files.example', words)).toEqual({
      ok: false,
      error: 'The base URL must start with https:// or http://, not ftp://.',
    });
    expect(parseHttpUrl('https://me:secret@api.example', words)).toEqual({ ok: false, error: 'No credentials.' });
  });
});
