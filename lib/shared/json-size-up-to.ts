/**
 * How many characters a value's JSON would have, counted only up to a limit: past it the walk stops and the answer
 * is Infinity. Measuring a hostile value (a page's tool report, a tool's result) costs at most what the limit
 * allows, never what the value weighs: a 30 MB string is one `length`, an array of a million items is walked only
 * until the limit is passed. Strings count their characters plus the quotes, not JSON's escapes (a close bound).
 * A value JSON cannot write (a cycle, nesting past 64 levels) counts as Infinity.
 */

/** The value's JSON length when it is at most `limit`, else Infinity. */
export function jsonSizeUpTo(value: unknown, limit: number): number {
  let size = 0;
  const visit = (item: unknown, depth: number): boolean => {
    if (depth > 64) return false;
    switch (typeof item) {
      case 'string':
        size += item.length + 2;
        return size <= limit;
      case 'number':
      case 'boolean':
      case 'bigint':
        size += String(item).length;
        return size <= limit;
      case 'undefined':
      case 'function':
      case 'symbol':
        size += 4;
        return size <= limit;
      default:
        break;
    }
    if (item === null) {
      size += 4;
      return size <= limit;
    }
    if (Array.isArray(item)) {
      size += 2;
      for (const entry of item) {
        size += 1;
        if (size > limit || !visit(entry, depth + 1)) return false;
      }
      return size <= limit;
    }
    size += 2;
    for (const key in item as object) {
      if (!Object.hasOwn(item as object, key)) continue;
      size += key.length + 4;
      if (size > limit || !visit((item as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return size <= limit;
  };
  try {
    return visit(value, 0) ? size : Number.POSITIVE_INFINITY;
  } catch {
    // A getter that throws (a structured clone has none, a page's object may): not a value to take in.
    return Number.POSITIVE_INFINITY;
  }
}
