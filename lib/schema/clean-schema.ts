import { cleanPageText } from '../page-data/clean-page-text';
import type { JSONSchema } from './json-schema';
import { setOwn } from '../shared/read-own';
import { SCHEMA_LIMITS } from './schema-limits';
import { NAME_MAP_KEYWORDS } from './subschema-keywords';

/** A description without hidden characters (cleanPageText: the one list every path uses), newlines kept. */
export function cleanDescription(text: string): string {
  return cleanPageText(String(text)).trim();
}

/**
 * A page schema as an outside reader accepts it (a cloud provider, a desktop agent over MCP): a fresh copy without
 * `$schema` and `$id` (providers reject or misread them), hidden characters removed from every string and key
 * (cleanPageText), cycles cut and parts deeper than SCHEMA_LIMITS.depth cut, and always an object schema at the root
 * (a tool's input is an object of named parameters; OpenAI refuses anything else). `$ref`s are kept as they are:
 * their targets come along in `$defs`.
 */
export function cleanSchema(schema: JSONSchema | undefined): JSONSchema {
  const root = copy(schema ?? {}, 0, new Set(), false);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return { type: 'object', properties: {} };
  const object = root as JSONSchema;
  if (object.type === undefined) return { type: 'object', properties: {}, ...object };
  if (object.type !== 'object') return { type: 'object', properties: {} };
  return object;
}

/** `isNameMap`: the node's keys are names (of properties, definitions), not keywords. */
function copy(node: unknown, depth: number, seen: Set<object>, isNameMap: boolean): unknown {
  if (Array.isArray(node)) {
    if (seen.has(node) || depth > 2 * SCHEMA_LIMITS.depth) return [];
    seen.add(node);
    const out = node.map((item) => copy(item, depth + 1, seen, false));
    seen.delete(node);
    return out;
  }
  // Every string a provider shows the model is page text: names, descriptions, enum values, patterns.
  if (typeof node === 'string') return cleanPageText(node);
  if (node === null || typeof node !== 'object') return node;
  // A level of subschemas is two levels of objects (`properties`, then the name): the depth counts both.
  if (seen.has(node) || depth > 2 * SCHEMA_LIMITS.depth) return {};
  seen.add(node);
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(node)) {
    const key = cleanPageText(rawKey);
    if (!isNameMap && (key === '$schema' || key === '$id' || key === '__proto__')) continue;
    setOwn(out, key, copy(value, depth + 1, seen, !isNameMap && NAME_MAP_KEYWORDS.has(key)));
  }
  seen.delete(node);
  return out;
}
