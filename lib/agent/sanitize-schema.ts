import { isRecord } from '../shared/is-record';
import { resolvePointer } from './resolve-pointer';

/**
 * Most schema nodes kept after inlining `$ref`s. Page schemas are untrusted: a schema that expands past this
 * (a "billion laughs" of refs, or just a huge one) is cut to "anything goes" below the limit, so checking one
 * call stays bounded.
 */
export const MAX_SCHEMA_NODES = 5_000;
/** Deepest schema nesting kept. Deeper parts accept anything. */
export const MAX_SCHEMA_DEPTH = 24;

/** Keywords whose value is one subschema. */
const SUBSCHEMA = new Set([
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'contains',
]);
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
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

/**
 * A finite, reference-free copy of an untrusted schema: local `$ref`s inlined (a reference back into itself
 * accepts anything at that point), remote ones dropped, keyword values of the wrong shape dropped, unsafe
 * patterns dropped, and the whole bounded in size and depth.
 */
export function sanitizeSchema(root: Record<string, unknown>): Record<string, unknown> | boolean {
  let budget = MAX_SCHEMA_NODES;
  const refStack: string[] = [];

  const visit = (node: unknown, depth: number, seen: Set<object>): Record<string, unknown> | boolean => {
    if (typeof node === 'boolean') return node;
    if (!isRecord(node) || seen.has(node) || depth > MAX_SCHEMA_DEPTH || --budget < 0) return true;
    seen.add(node);
    try {
      const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
      const out: Record<string, unknown> = {};
      if (ref !== undefined) {
        const target = ref.startsWith('#') && !refStack.includes(ref) ? resolvePointer(root, ref.slice(1)) : undefined;
        if (target !== undefined) {
          refStack.push(ref);
          const inlined = visit(target, depth + 1, new Set());
          refStack.pop();
          if (inlined === false) return false;
          if (isRecord(inlined)) {
            // Draft 2019+ lets siblings sit beside $ref: keep both through allOf.
            out.allOf = [inlined];
          }
        }
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' || DROPPED.has(key) || key.startsWith('__')) continue;
        const kept = keyword(key, value, depth, seen);
        if (kept !== undefined) {
          if (key === 'allOf' && Array.isArray(out.allOf)) out.allOf = [...(out.allOf as unknown[]), ...(kept as unknown[])];
          else out[key] = kept;
        }
      }
      return out;
    } finally {
      seen.delete(node);
    }
  };

  const keyword = (key: string, value: unknown, depth: number, seen: Set<object>): unknown => {
    if (SUBSCHEMA.has(key)) return isRecord(value) || typeof value === 'boolean' ? visit(value, depth + 1, seen) : undefined;
    if (SUBSCHEMA_LIST.has(key)) {
      return Array.isArray(value) && value.length > 0 ? value.map((v) => visit(v, depth + 1, seen)) : undefined;
    }
    if (SUBSCHEMA_MAP.has(key)) {
      if (!isRecord(value)) return undefined;
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        if (key === 'patternProperties' && !isSafePattern(name)) continue;
        map[name] = visit(sub, depth + 1, seen);
      }
      return map;
    }
    switch (key) {
      case 'items':
        if (Array.isArray(value)) return value.map((v) => visit(v, depth + 1, seen));
        return isRecord(value) || typeof value === 'boolean' ? visit(value, depth + 1, seen) : undefined;
      case 'type':
        if (typeof value === 'string') return TYPES.has(value) ? value : undefined;
        if (Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string' && TYPES.has(t))) {
          return value;
        }
        return undefined;
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
      case 'dependencies': {
        if (!isRecord(value)) return undefined;
        const map: Record<string, unknown> = {};
        for (const [name, dep] of Object.entries(value)) {
          if (Array.isArray(dep)) {
            if (dep.every((s) => typeof s === 'string')) map[name] = dep;
          } else map[name] = visit(dep, depth + 1, seen);
        }
        return map;
      }
      case 'minimum':
      case 'maximum':
      case 'multipleOf':
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties':
      case 'minContains':
      case 'maxContains':
        return typeof value === 'number' && Number.isFinite(value) && !(key === 'multipleOf' && value <= 0) ? value : undefined;
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
  };

  return visit(root, 0, new Set());
}

/** Patterns that compile under the `u` flag and have no nested quantifier (the classic catastrophic shapes). */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > 500) return false;
  // A quantified group that itself holds a quantifier or an alternation: (a+)+, (a|aa)*, (\w+\s?)*.
  if (/\((?:[^()\\]|\\.)*(?:[+*}]|\|)(?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d)/.test(pattern)) return false;
  if (/\\\d/.test(pattern)) return false; // backreferences
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
