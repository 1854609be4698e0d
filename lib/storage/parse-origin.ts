import { type Parsed, parseHttpUrl } from './parse-http-url';

export type { Parsed };

/**
 * Reads a web origin typed by a person ("https://shop.example", "http://127.0.0.1:8080/") and returns it
 * normalised as URL.origin gives it (lower-case host, no default port, no trailing slash).
 * Only http and https: no other scheme has pages with WebMCP tools or serves model files.
 */
export function parseOrigin(input: string, example = 'https://shop.example'): Parsed<string> {
  // Stored values can be anything (older versions, hand edits): a non-string reads as empty.
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') return { ok: false, error: `Enter an origin, for example ${example}.` };
  const parsed = parseHttpUrl(text, {
    aNoun: 'an origin',
    noun: 'origin',
    subject: 'The origin',
    example,
    credentials: 'The origin must not contain a user name or password.',
  });
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { ok: false, error: `An origin has no path: use ${url.origin} (without “${url.pathname}${url.search}${url.hash}”).` };
  }
  return { ok: true, value: url.origin };
}

/** An origin as stored, or the input unchanged when it is not one (so lookups simply miss). */
export function normaliseOrigin(origin: string): string {
  const parsed = parseOrigin(origin);
  return parsed.ok ? parsed.value : origin;
}
