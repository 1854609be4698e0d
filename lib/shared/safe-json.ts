/**
 * JSON text of a value for a model or a person to read, never throwing: what JSON cannot hold at all (undefined, a
 * function, a symbol) gives '', and a value JSON.stringify refuses (a cycle, a BigInt) gives String(value).
 * Tool output is the page's and may be any of these.
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
