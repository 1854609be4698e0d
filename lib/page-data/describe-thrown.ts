/**
 * A thrown value (or a rejection reason) from the page, as a bounded message that never throws.
 *
 * A page can throw anything: `Object.create(null)` (String() of it throws), an Error whose `message` getter
 * throws, a Proxy whose every trap throws, a Symbol, a revoked Proxy. Code that turns such a value into text
 * inside a rejection handler would throw there, the handler's promise would reject unseen, and the call would
 * never settle. Every place that turns a page value into an error message goes through this function instead.
 */

/** Longest message kept from a page's error. */
const MAX_THROWN_MESSAGE = 2_000;

/** The error's name and message, read defensively. `name` is 'Error' when it cannot be read as a string. */
interface ThrownDescription {
  name: string;
  message: string;
}

/** Reads `value` as `{name, message}`; never throws, whatever `value` is. */
export function describeThrown(value: unknown, max = MAX_THROWN_MESSAGE): ThrownDescription {
  try {
    const name = stringField(value, 'name')?.slice(0, 100) || 'Error';
    let message = stringField(value, 'message');
    if (message === undefined) message = plainText(value);
    return { name, message: message.slice(0, max) };
  } catch {
    // In the page's realm the page may have replaced the built-ins used above (String.prototype.slice, …).
    return { name: 'Error', message: UNREADABLE };
  }
}

const UNREADABLE = 'The page threw a value that cannot be read.';

/** Just the message of {@link describeThrown}. */
export function thrownMessage(value: unknown, max = MAX_THROWN_MESSAGE): string {
  return describeThrown(value, max).message;
}

/** A string-valued property, or undefined when it is absent, not a string, or its getter or trap throws. */
function stringField(value: unknown, key: 'name' | 'message'): string | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    const field: unknown = Reflect.get(value, key);
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}

/** A primitive as text; an object without a readable message as its tag ("[object Object]"), never by calling it. */
function plainText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value);
    case 'symbol':
      try {
        return value.toString();
      } catch {
        return 'Symbol()';
      }
    default:
      if (value === null) return 'null';
      // Object.prototype.toString reads Symbol.toStringTag, which a Proxy's get trap can make throw.
      try {
        return Object.prototype.toString.call(value);
      } catch {
        return '[object]';
      }
  }
}
