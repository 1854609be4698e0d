/** A parse that either gives the normalised value or says, in words a person can act on, what is wrong. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** How messages name what the person typed. */
interface HttpUrlWords {
  /** With its article: "an origin", "a URL". */
  aNoun: string;
  /** Without: "origin", "URL". */
  noun: string;
  /** The field as a sentence subject: "The origin", "The base URL". */
  subject: string;
  /** One well-formed value, for "write it like …". */
  example: string;
  /** What to say when the value carries a user name or password. */
  credentials: string;
}

/**
 * The checks every http(s) address typed by a person needs: a scheme, a parseable URL, http or https, and no
 * credentials. Callers add what is particular to their field (no path for an origin, no query for a base URL).
 */
export function parseHttpUrl(text: string, words: HttpUrlWords): Parsed<URL> {
  // "localhost:11434" parses as a URL with the scheme "localhost:": a missing "://" means a missing scheme.
  if (!text.includes('://')) {
    return {
      ok: false,
      error: /\s/.test(text)
        ? `“${text}” is not ${words.aNoun}: write it like ${words.example}.`
        : `“${text}” needs its scheme: write https://${text} (or http:// for a local server).`,
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `“${text}” is not a valid ${words.noun}: write it like ${words.example}.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: `${words.subject} must start with https:// or http://, not ${url.protocol}//.` };
  }
  if (url.username || url.password) return { ok: false, error: words.credentials };
  return { ok: true, value: url };
}
