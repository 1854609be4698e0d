/**
 * WebIDL's conversion of an optional dictionary argument (WebMCP's `ModelContextRegisterToolOptions`,
 * `ModelContextGetToolOptions`, `ExecuteToolOptions`), with Chromium's TypeError message: `undefined` and `null` are
 * the empty dictionary, an object (a function too) is read member by member, anything else is refused. Probed
 * against Chromium 156 (docs/webmcp-conformance.md).
 */

/** Where the argument is read, for the message: `Failed to execute '<operation>' on 'ModelContext': …`. */
interface ArgumentPlace {
  operation: string;
  dictionary: string;
}

/** The dictionary to read members from, or undefined for the empty one. Throws native's TypeError. */
export function readDictionaryArgument(value: unknown, place: ArgumentPlace): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' || typeof value === 'function') return value as Record<string, unknown>;
  throw new TypeError(`Failed to execute '${place.operation}' on 'ModelContext': The provided value is not of type '${place.dictionary}'.`);
}
