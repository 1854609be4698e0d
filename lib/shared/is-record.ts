/**
 * A non-null object that is not an array, whose keys can be read: what untrusted JSON (a page's schema, a model's
 * arguments, a stored value) is checked for before any of its fields is trusted.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
