import { isRecord } from '../shared/is-record';
import { readOwn } from '../shared/read-own';

/**
 * The node a JSON Pointer (RFC 6901, as in `/$defs/item`) names inside `root`, or undefined: `~1` is `/` and `~0` is
 * `~` in a step, and a step into an array is its index. Only own properties are followed.
 */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(step) ? node[Number(step)] : undefined;
    else if (isRecord(node)) node = readOwn(node, step);
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Where a schema's local `$ref` (`#`, `#/$defs/card`, `#/$defs/caf%C3%A9`) leads inside `root`, or undefined for a
 * remote or broken one. The reference is a URI fragment: it is percent-decoded first and then read as a pointer
 * (RFC 6901 § 6), so `%2F` is a step, not part of a name. Every walker resolves references here, so they all agree
 * on where one leads.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return resolvePointer(root, pointer);
}
