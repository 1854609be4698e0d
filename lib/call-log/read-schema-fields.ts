import { readOwn } from '../shared/read-own';
import { SCHEMA_VIEW_LIMITS } from '../schema/schema-limits';
import { isRecord } from '../shared/is-record';
/**
 * A tool's JSON Schema as a list of fields a person can read: path, type, required, enum, description, default.
 * The schema is the page's and untrusted, so the walk is bounded (depth, fields, text length) and never throws;
 * `$ref`s are shown as references, not followed.
 */

/** One field of a schema, flattened. */
export interface SchemaField {
  /** Where it is: `query`, `address.city`, `items[].sku`. */
  path: string;
  /** How deep it is (0 for a top-level property). */
  depth: number;
  /** `string`, `number`, `integer`, `boolean`, `array`, `object`, `null`, `any`, or a union (`string | null`). */
  type: string;
  required: boolean;
  description?: string;
  /** The allowed values, when the schema lists them (`enum`, or `const`). */
  enum?: unknown[];
  default?: unknown;
  /** `format`, such as `date` or `password`. */
  format?: string;
  /** `$ref` target, when the field is a reference. */
  ref?: string;
  /** The field holds a secret (`format: password` or `writeOnly`): shown masked, never exported. */
  secret: boolean;
}

interface SchemaFields {
  fields: SchemaField[];
  /** Some fields were left out: the schema was deeper or larger than shown. */
  truncated: boolean;
}

/** Deepest nesting shown. */
export const MAX_FIELD_DEPTH = SCHEMA_VIEW_LIMITS.fieldDepth;
/** Most fields shown. */
export const MAX_FIELDS = SCHEMA_VIEW_LIMITS.fields;
/** Longest description or value shown, in characters. */
const MAX_FIELD_TEXT = 500;

/** Reads the fields of an object schema (a tool's input or output schema). */
export function readSchemaFields(schema: unknown): SchemaFields {
  const fields: SchemaField[] = [];
  let truncated = false;
  const visit = (node: unknown, path: string, depth: number, required: boolean, seen: Set<object>) => {
    if (fields.length >= MAX_FIELDS || depth > MAX_FIELD_DEPTH) {
      truncated = true;
      return;
    }
    const record = asRecord(node);
    fields.push(describeField(record, path, depth, required));
    // A schema that contains itself is shown once at each place, not followed again.
    if (!record || seen.has(record)) return;
    const next = new Set(seen).add(record);
    for (const [name, child, isRequired] of properties(record)) visit(child, `${path}.${name}`, depth + 1, isRequired, next);
    const items = asRecord(read(record, 'items'));
    if (items && typeOf(items) !== 'any') visit(items, `${path}[]`, depth + 1, false, next);
  };
  const root = asRecord(schema);
  if (root) {
    const seen = new Set<object>([root]);
    for (const [name, child, isRequired] of properties(root)) visit(child, name, 0, isRequired, seen);
  }
  return { fields, truncated };
}

function describeField(record: Record<string, unknown> | undefined, path: string, depth: number, required: boolean): SchemaField {
  const description = text(read(record, 'description')) ?? text(read(record, 'title'));
  const values = Array.isArray(read(record, 'enum'))
    ? (read(record, 'enum') as unknown[]).slice(0, 50)
    : read(record, 'const') !== undefined
      ? [read(record, 'const')]
      : undefined;
  const format = text(read(record, 'format'));
  const ref = text(read(record, '$ref'));
  const fallback = read(record, 'default');
  return {
    path,
    depth,
    type: record ? typeOf(record) : 'any',
    required,
    ...(description ? { description } : {}),
    ...(values ? { enum: values } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(format ? { format } : {}),
    ...(ref ? { ref } : {}),
    secret: format === 'password' || read(record, 'writeOnly') === true,
  };
}

/** The properties of an object schema, with whether each is required. */
function properties(record: Record<string, unknown>): [string, unknown, boolean][] {
  const props = asRecord(read(record, 'properties'));
  if (!props) return [];
  const requiredList = read(record, 'required');
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((r): r is string => typeof r === 'string') : []);
  return Object.keys(props).map((name) => [name.slice(0, 100), read(props, name), required.has(name)]);
}

/** The type of a schema node, in words. */
export function typeOf(record: Record<string, unknown>): string {
  const type = read(record, 'type');
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join(' | ') || 'any';
  if (read(record, 'enum') !== undefined || read(record, 'const') !== undefined) return 'enum';
  if (read(record, 'properties') !== undefined) return 'object';
  if (read(record, 'items') !== undefined) return 'array';
  for (const union of ['anyOf', 'oneOf'] as const) {
    const options = read(record, union);
    if (Array.isArray(options)) {
      return options
        .slice(0, 6)
        .map((o) => (asRecord(o) ? typeOf(asRecord(o) as Record<string, unknown>) : 'any'))
        .join(' | ');
    }
  }
  if (read(record, '$ref') !== undefined) return 'ref';
  return 'any';
}

/** A property of an untrusted object, without running its getters' side effects into a throw. */
function read(record: Record<string, unknown> | undefined, key: string): unknown {
  return record ? readOwn(record, key) : undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.length > MAX_FIELD_TEXT ? `${value.slice(0, MAX_FIELD_TEXT - 1)}…` : value;
}
