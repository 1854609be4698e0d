/** A parse that either gives the normalised value or says, in words a person can act on, what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Reads a web origin typed by a person ("https://shop.example", "http://127.0.0.1:8080/") and returns it
 * normalised as URL.origin gives it (lower-case host, no default port, no trailing slash).
 * Only http and https: no other scheme has pages with WebMCP tools or serves model files.
 */
export function parseOrigin(input: string, example = 'https://shop.example'): Parsed<string> {
  // Stored values can be anything (older versions, hand edits): a non-string reads as empty.
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') return { ok: false, error: `Enter an origin, for example ${example}.` };
  // "localhost:11434" parses as a URL with the scheme "localhost:": a missing "://" means a missing scheme.
  if (!text.includes('://')) {
    return {
      ok: false,
      error: /\s/.test(text)
        ? `“${text}” is not an origin: write it like ${example}.`
        : `“${text}” needs its scheme: write https://${text} (or http:// for a local server).`,
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      error: `“${text}” is not a valid origin: write it like ${example}.`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: `The origin must start with https:// or http://, not ${url.protocol}//.` };
  }
  if (url.username || url.password) {
    return { ok: false, error: `The origin must not contain a user name or password.` };
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { ok: false, error: `An origin has no path: use ${url.origin} (without “${url.pathname}${url.search}${url.hash}”).` };
  }
  return { ok: true, value: url.origin };
}
