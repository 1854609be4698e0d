import { type OutputUnit, type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import { cleanPageText } from '../page-data/clean-page-text';

/** The verdict on one tool call's arguments. */
export type ValidateArgsResult = { ok: true } | { ok: false; message: string };

/**
 * Most schema nodes kept after inlining `$ref`s. Page schemas are untrusted: a schema that expands past this
 * (a "billion laughs" of refs, or just a huge one) is cut to "anything goes" below the limit, so checking one
 * call stays bounded.
 */
const MAX_SCHEMA_NODES = 5_000;
/** Deepest schema nesting kept. Deeper parts accept anything. */
const MAX_SCHEMA_DEPTH = 24;
/** Most messages joined into one reply: a small model fixes a few things at a time. */
const MAX_MESSAGES = 4;
/** Most enum values listed in a message. */
const MAX_LISTED = 12;

const cache = new WeakMap<object, { validator: Validator; schema: Schema } | null>();

/**
 * Checks a tool call's arguments against the tool's JSON Schema, without eval (so it runs in MV3 extension
 * pages and in Firefox, where Ajv's compiled validators are refused by the CSP).
 *
 * Messages are short and concrete, for a small model to fix its call: "size: must be one of Small, Medium,
 * Large", "query: required". Several problems are joined with "; ".
 *
 * The schema is the page's and untrusted: cyclic objects, self-referencing or unresolvable `$ref`s, invalid or
 * catastrophic regular expressions and huge schemas never hang or throw. Parts that cannot be checked safely are
 * left to the tool itself (which answers `invalid_input` when it disagrees).
 */
export function validateArgs(schema: unknown, args: unknown): ValidateArgsResult {
  const compiled = compile(schema);
  if (!compiled) return { ok: true };
  let errors: OutputUnit[];
  try {
    const result = compiled.validator.validate(args === undefined ? {} : args);
    if (result.valid) return { ok: true };
    errors = result.errors;
  } catch {
    // A schema shape the validator cannot handle: the tool judges its own input.
    return { ok: true };
  }
  const messages = describeErrors(errors, compiled.schema);
  if (messages.length === 0) return { ok: false, message: 'input: does not match the tool’s parameters' };
  // The message quotes the page's schema (parameter names, enum values), and a model reads it: page text rules apply.
  return { ok: false, message: cleanPageText(messages.slice(0, MAX_MESSAGES).join('; ')) };
}

function compile(schema: unknown): { validator: Validator; schema: Schema } | null {
  if (schema === false) {
    return { validator: new Validator(false), schema: {} as Schema };
  }
  if (!isObject(schema)) return null;
  const hit = cache.get(schema);
  if (hit !== undefined) return hit;
  let compiled: { validator: Validator; schema: Schema } | null = null;
  try {
    const safe = sanitizeSchema(schema);
    if (safe && Object.keys(safe).length > 0) {
      compiled = { validator: new Validator(safe as Schema, draftOf(schema), false), schema: safe as Schema };
    }
  } catch {
    compiled = null;
  }
  cache.set(schema, compiled);
  return compiled;
}

function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (id.includes('draft-04')) return '4';
  if (id.includes('draft-06') || id.includes('draft-07')) return '7';
  if (id.includes('2020-12')) return '2020-12';
  return '2019-09';
}

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
function sanitizeSchema(root: Record<string, unknown>): Record<string, unknown> | boolean {
  let budget = MAX_SCHEMA_NODES;
  const refStack: string[] = [];

  const visit = (node: unknown, depth: number, seen: Set<object>): Record<string, unknown> | boolean => {
    if (typeof node === 'boolean') return node;
    if (!isObject(node) || seen.has(node) || depth > MAX_SCHEMA_DEPTH || --budget < 0) return true;
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
          if (isObject(inlined)) {
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
    if (SUBSCHEMA.has(key)) return isObject(value) || typeof value === 'boolean' ? visit(value, depth + 1, seen) : undefined;
    if (SUBSCHEMA_LIST.has(key)) {
      return Array.isArray(value) && value.length > 0 ? value.map((v) => visit(v, depth + 1, seen)) : undefined;
    }
    if (SUBSCHEMA_MAP.has(key)) {
      if (!isObject(value)) return undefined;
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
        return isObject(value) || typeof value === 'boolean' ? visit(value, depth + 1, seen) : undefined;
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
        return isObject(value) && Object.values(value).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))
          ? value
          : undefined;
      case 'dependencies': {
        if (!isObject(value)) return undefined;
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
function isSafePattern(pattern: string): boolean {
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

function resolvePointer(root: unknown, pointer: string): unknown {
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
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** Keywords whose failure is only a summary of a nested failure reported on its own. */
const CONTAINERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  '$ref',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'contains',
]);

function describeErrors(errors: OutputUnit[], schema: Schema): string[] {
  // Failures inside an anyOf/oneOf branch contradict each other; say only that no form matched.
  const alternatives = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => `${e.keywordLocation}/`);
  const unknownProps = new Set<string>();
  const messages: string[] = [];
  for (const error of errors) {
    if (alternatives.some((prefix) => error.keywordLocation.startsWith(prefix))) continue;
    if (CONTAINERS.has(error.keyword)) continue;
    const message = describeError(error, schema, unknownProps);
    if (message && !messages.includes(message)) messages.push(message);
  }
  return messages;
}

function describeError(error: OutputUnit, schema: Schema, unknownProps: Set<string>): string | undefined {
  const where = pathOf(error.instanceLocation);
  const node = resolvePointer(schema, error.keywordLocation.replace(/^#/, '').replace(/\/[^/]*$/, ''));
  const rule = isObject(node) ? node : {};
  const value = rule[error.keyword];
  switch (error.keyword) {
    case 'required': {
      const missing = /required property "(.*)"/.exec(error.error)?.[1];
      return missing === undefined ? `${where}: missing a required parameter` : `${join(where, missing)}: required`;
    }
    case 'type': {
      const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string');
      if (error.instanceLocation === '#' && types.includes('object')) return 'input: must be an object of named parameters';
      return `${where}: must be ${types.map(article).join(' or ')}`;
    }
    case 'enum': {
      const options = Array.isArray(value) ? value : [];
      const listed = options.slice(0, MAX_LISTED).map(show).join(', ');
      return `${where}: must be one of ${listed}${options.length > MAX_LISTED ? ', …' : ''}`;
    }
    case 'const':
      return `${where}: must be ${show(value)}`;
    case 'minimum':
      return rule.exclusiveMinimum === true ? `${where}: must be greater than ${value}` : `${where}: must be at least ${value}`;
    case 'maximum':
      return rule.exclusiveMaximum === true ? `${where}: must be less than ${value}` : `${where}: must be at most ${value}`;
    case 'exclusiveMinimum':
      return `${where}: must be greater than ${typeof value === 'number' ? value : rule.minimum}`;
    case 'exclusiveMaximum':
      return `${where}: must be less than ${typeof value === 'number' ? value : rule.maximum}`;
    case 'multipleOf':
      return `${where}: must be a multiple of ${value}`;
    case 'minLength':
      return value === 1 ? `${where}: must not be empty` : `${where}: must have at least ${value} characters`;
    case 'maxLength':
      return `${where}: must have at most ${value} characters`;
    case 'pattern':
      return `${where}: must match the pattern ${value}`;
    case 'format':
      return `${where}: must be ${FORMATS[String(value)] ?? `a valid ${value}`}`;
    case 'minItems':
      return value === 1 ? `${where}: must not be empty` : `${where}: must have at least ${value} items`;
    case 'maxItems':
      return `${where}: must have at most ${value} items`;
    case 'uniqueItems':
      return `${where}: must not repeat items`;
    case 'minProperties':
      return `${where}: must have at least ${value} parameters`;
    case 'maxProperties':
      return `${where}: must have at most ${value} parameters`;
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = /Property "(.*)" does not match/.exec(error.error)?.[1];
      if (name === undefined) return `${where}: has an unknown parameter`;
      unknownProps.add(join(where, name));
      const allowed = isObject(rule.properties) ? Object.keys(rule.properties) : [];
      if (rule[error.keyword] !== false) return undefined; // a schema for extra properties: its own failure says more
      return allowed.length
        ? `${join(where, name)}: unknown parameter (allowed: ${allowed.slice(0, MAX_LISTED).join(', ')})`
        : `${join(where, name)}: unknown parameter`;
    }
    case 'false':
      return unknownProps.has(where) ? undefined : `${where}: not allowed`;
    case 'propertyNames':
      return `${where}: has a parameter name that is not allowed`;
    case 'dependentRequired':
    case 'dependencies':
      return `${where}: ${error.error.replace(/^Instance\s*/, '')}`;
    case 'anyOf':
      return `${where}: does not match any allowed form`;
    case 'oneOf':
      return `${where}: must match exactly one allowed form`;
    case 'not':
      return `${where}: this value is not allowed`;
    case 'minContains':
    case 'maxContains':
      return `${where}: ${error.error}`;
    default:
      return `${where}: ${error.error}`;
  }
}

const FORMATS: Record<string, string> = {
  date: 'a date like 2025-01-31',
  'date-time': 'a date and time like 2025-01-31T09:30:00Z',
  time: 'a time like 09:30:00Z',
  email: 'an email address',
  uri: 'a full URL like https://example.com/',
  url: 'a full URL like https://example.com/',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
};

function article(type: string): string {
  if (type === 'integer') return 'a whole number';
  if (type === 'null') return 'null';
  if (type === 'array') return 'a list (array)';
  if (type === 'object') return 'an object';
  return `a ${type}`;
}

/** An enum or const value as a model should write it: strings bare, the rest as JSON. */
function show(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** "#/o/x" → "o.x", "#/tags/0" → "tags[0]", "#" → "input". */
function pathOf(location: string): string {
  const segments = location.replace(/^#\/?/, '');
  if (segments === '') return 'input';
  let out = '';
  for (const raw of segments.split('/')) {
    let s = raw;
    try {
      s = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      // keep the raw segment
    }
    out += /^\d+$/.test(s) ? `[${s}]` : out ? `.${s}` : s;
  }
  return out;
}

function join(where: string, name: string): string {
  return where === 'input' ? name : `${where}.${name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
