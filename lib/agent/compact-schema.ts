import { cleanPageText, cleanPageValue } from '../page-data/clean-page-text';
import { setOwn } from '../shared/read-own';
import { resolveLocalRef } from '../schema/resolve-pointer';
import { SCHEMA_VIEW_LIMITS } from '../schema/schema-limits';
import { isRecord } from '../shared/is-record';
import type { JSONSchema } from './types';

/** Longest parameter description kept: small models read every token of the tool list, every step. */
const MAX_DESCRIPTION = 160;
const MAX_ENUM = 24;

/** Keywords a model needs to write a valid call. Everything else (ids, titles, examples, comments) is noise. */
const KEPT = new Set([
  'type',
  'description',
  'enum',
  'const',
  'default',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'required',
  'properties',
  'items',
  'anyOf',
  'oneOf',
]);

/**
 * A short copy of a page tool's parameter schema for the prompt: local `$ref`s inlined (a few levels), only the
 * keywords that shape a valid call kept, descriptions and enums cut, hidden characters stripped from every string. Always an
 * object schema, whatever the page declared.
 */
export function compactSchema(schema: unknown): JSONSchema {
  let nodes = SCHEMA_VIEW_LIMITS.promptNodes;
  const root = isRecord(schema) ? schema : {};

  const visit = (node: unknown, depth: number, refs: readonly string[]): Record<string, unknown> => {
    if (!isRecord(node) || depth > SCHEMA_VIEW_LIMITS.promptDepth || --nodes < 0) return {};
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      const target = refs.includes(ref) ? undefined : resolveLocalRef(root, ref);
      const inlined = target === undefined ? {} : visit(target, depth, [...refs, ref]);
      const { $ref: _ref, ...siblings } = node;
      return Object.keys(siblings).length ? { ...inlined, ...visit(siblings, depth, refs) } : inlined;
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (!KEPT.has(key)) continue;
      switch (key) {
        case 'description':
          if (typeof value === 'string' && value.trim()) out.description = cleanText(value, MAX_DESCRIPTION);
          break;
        case 'properties':
          if (isRecord(value)) {
            const props: Record<string, unknown> = {};
            for (const [name, sub] of Object.entries(value)) setOwn(props, name, visit(sub, depth + 1, refs));
            out.properties = props;
          }
          break;
        case 'items':
          if (isRecord(value)) out.items = visit(value, depth + 1, refs);
          break;
        case 'anyOf':
        case 'oneOf':
          if (Array.isArray(value)) out[key] = value.slice(0, 6).map((v) => visit(v, depth + 1, refs));
          break;
        case 'enum':
          if (Array.isArray(value)) out.enum = value.slice(0, MAX_ENUM);
          break;
        case 'required':
          if (Array.isArray(value)) out.required = value.filter((r) => typeof r === 'string');
          break;
        case 'pattern':
          if (typeof value === 'string' && value.length <= 120) out.pattern = value;
          break;
        case 'default':
        case 'const':
          if (jsonLength(value) <= 200) out[key] = value;
          break;
        default:
          if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value)) {
            out[key] = value;
          }
      }
    }
    return out;
  };

  // Every string the prompt shows is page text: parameter names, enum values, patterns and defaults too.
  const compact = cleanPageValue(visit(root, 0, []));
  if (compact.type !== 'object') compact.type = 'object';
  if (!isRecord(compact.properties)) compact.properties = {};
  return compact;
}

/** A description for the prompt: hidden characters out (cleanPageText), one line, cut at `max` characters. */
export function cleanText(text: string, max: number): string {
  return cleanPageText(text, { oneLine: true, max });
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
