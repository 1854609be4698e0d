import { isRecord } from '../shared/is-record';
import { isSafePattern } from './is-safe-pattern';
import { setOwn } from '../shared/read-own';
import { resolveLocalRef } from './resolve-pointer';
import { SCHEMA_LIMITS } from './schema-limits';
import { SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from './subschema-keywords';

/** Keywords dropped: references are inlined, identifiers would make the validator look elsewhere. */
const DROPPED = new Set([
  '$id',
  'id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveRef',
  '$recursiveAnchor',
  '$defs',
  'definitions',
  '$vocabulary',
  '$comment',
]);
const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const NUMBER_KEYWORDS = new Set([
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
]);

/** One walk's state: the root `$ref`s resolve against, the nodes left, the references being inlined. */
interface Walk {
  root: Record<string, unknown>;
  budget: number;
  refStack: string[];
}

/**
 * A finite, reference-free copy of an untrusted schema for the validator: local `$ref`s inlined (a reference back
 * into itself accepts anything at that point), remote ones dropped, keyword values of the wrong shape dropped, unsafe
 * patterns dropped, and the whole bounded by SCHEMA_LIMITS (past them, "anything goes").
 */
export function sanitizeSchema(root: Record<string, unknown>): Record<string, unknown> | boolean {
  return visit({ root, budget: SCHEMA_LIMITS.nodes, refStack: [] }, root, 0, new Set());
}

function visit(walk: Walk, node: unknown, depth: number, seen: Set<object>): Record<string, unknown> | boolean {
  if (typeof node === 'boolean') return node;
  if (!isRecord(node) || seen.has(node) || depth > SCHEMA_LIMITS.depth || --walk.budget < 0) return true;
  seen.add(node);
  try {
    const out: Record<string, unknown> = {};
    const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
    if (ref !== undefined) {
      const target = walk.refStack.includes(ref) ? undefined : resolveLocalRef(walk.root, ref);
      if (target !== undefined) {
        walk.refStack.push(ref);
        const inlined = visit(walk, target, depth + 1, new Set());
        walk.refStack.pop();
        if (inlined === false) return false;
        // Draft 2019+ lets siblings sit beside $ref: keep both through allOf.
        if (isRecord(inlined)) out.allOf = [inlined];
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' || DROPPED.has(key) || key.startsWith('__')) continue;
      const kept = keyword(walk, key, value, depth, seen);
      if (kept === undefined) continue;
      if (key === 'allOf' && Array.isArray(out.allOf)) out.allOf = [...(out.allOf as unknown[]), ...(kept as unknown[])];
      else out[key] = kept;
    }
    return out;
  } finally {
    seen.delete(node);
  }
}

function keyword(walk: Walk, key: string, value: unknown, depth: number, seen: Set<object>): unknown {
  const sub = (v: unknown) => visit(walk, v, depth + 1, seen);
  if (SUBSCHEMA_KEYWORDS.has(key)) return isRecord(value) || typeof value === 'boolean' ? sub(value) : undefined;
  if (SUBSCHEMA_LIST_KEYWORDS.has(key)) return Array.isArray(value) && value.length > 0 ? value.map(sub) : undefined;
  if (SUBSCHEMA_MAP_KEYWORDS.has(key)) {
    if (!isRecord(value)) return undefined;
    const map: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      if (key === 'patternProperties' && !isSafePattern(name)) continue;
      setOwn(map, name, sub(child));
    }
    return map;
  }
  if (NUMBER_KEYWORDS.has(key)) {
    return typeof value === 'number' && Number.isFinite(value) && !(key === 'multipleOf' && value <= 0) ? value : undefined;
  }
  switch (key) {
    case 'items':
      if (Array.isArray(value)) return value.map(sub);
      return isRecord(value) || typeof value === 'boolean' ? sub(value) : undefined;
    case 'type':
      if (typeof value === 'string') return TYPES.has(value) ? value : undefined;
      return Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string' && TYPES.has(t)) ? value : undefined;
    case 'required':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
    case 'enum':
      return Array.isArray(value) ? value : undefined;
    case 'pattern':
      return typeof value === 'string' && isSafePattern(value) ? value : undefined;
    case 'format':
      return typeof value === 'string' ? value : undefined;
    case 'dependentRequired':
      return isRecord(value) && Object.values(value).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))
        ? value
        : undefined;
    case 'dependencies':
      return isRecord(value) ? dependencies(value, sub) : undefined;
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
    case 'uniqueItems':
      return typeof value === 'boolean' ? value : undefined;
    case 'const':
      return value;
    default:
      // Annotations (title, description, default, examples…) and unknown keywords do not constrain anything.
      return undefined;
  }
}

/** `dependencies`: per name, a list of required names (kept if it is one) or a subschema. */
function dependencies(value: Record<string, unknown>, sub: (v: unknown) => unknown): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (const [name, dep] of Object.entries(value)) {
    if (!Array.isArray(dep)) setOwn(map, name, sub(dep));
    else if (dep.every((s) => typeof s === 'string')) setOwn(map, name, dep);
  }
  return map;
}
