/**
 * A property of an object the page made. A page can define a getter or a Proxy trap that throws, or hand over
 * something that is not an object at all; every such read is `undefined`, so one hostile field never stops the
 * bridge from reading the others (docs/security.md, §4 "What a page or frame controls").
 */
export function readPageField(target: unknown, key: string): unknown {
  if ((typeof target !== 'object' && typeof target !== 'function') || target === null) return undefined;
  try {
    return Reflect.get(target, key);
  } catch {
    return undefined;
  }
}
