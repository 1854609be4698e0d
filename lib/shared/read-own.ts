/**
 * A page object's own property, or undefined: never one inherited from its prototype, and never an exception from a
 * getter the page defined (a schema that arrived through a structured clone or JSON has none, but a walker does not
 * rely on how it arrived).
 */
export function readOwn(target: object, key: string): unknown {
  try {
    return Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets `key` on `target` as an own, enumerable data property, whatever the key: `__proto__` as a property name (a
 * page may name a parameter so) stays a name and does not become the object's prototype.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
