import { isRecord } from '../shared/is-record';

/** The node a JSON Pointer (RFC 6901, as in `#/$defs/item`, without the `#`) names inside `root`, or undefined. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? root : (root as Record<string, unknown>)?.[''];
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}
