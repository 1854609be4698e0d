/**
 * WebIDL's conversion of a dictionary member of type `sequence<USVString>` (WebMCP's `exposedTo` and
 * `fromOrigins`), with Chromium's TypeError messages, so a page sees the polyfill fail where and how native fails:
 * not an object, no callable `@@iterator`, or an entry that is no string (a Symbol) is a TypeError; each entry
 * becomes a USVString (an unpaired surrogate becomes U+FFFD).
 */

/** Where the member is read, for the message: `Failed to execute '<operation>' on 'ModelContext': Failed to read the '<member>' property from '<dictionary>': …`. */
export interface MemberPlace {
  operation: string;
  dictionary: string;
  member: string;
}

/** The member's strings, or undefined when it is absent (`undefined`). Throws native's TypeError. */
export function readUSVStringSequence(value: unknown, place: MemberPlace): string[] | undefined {
  if (value === undefined) return undefined;
  const fail = (detail: string) =>
    new TypeError(
      `Failed to execute '${place.operation}' on 'ModelContext': Failed to read the '${place.member}' property from '${place.dictionary}': ${detail}`,
    );
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
    throw fail('The provided value cannot be converted to a sequence.');
  }
  const iterator = (value as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  if (typeof iterator !== 'function') throw fail('The object must have a callable @@iterator property.');
  const out: string[] = [];
  for (const entry of value as Iterable<unknown>) {
    if (typeof entry === 'symbol') throw fail('Cannot convert a Symbol value to a string');
    out.push(toUSVString(String(entry)));
  }
  return out;
}

/** A USVString: each unpaired surrogate becomes U+FFFD, as WebIDL converts it. */
export function toUSVString(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
