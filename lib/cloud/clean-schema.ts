import type { JSONSchema } from '../agent/types';
import { cleanPageText } from '../page-data/clean-page-text';

/** A description without hidden characters (cleanPageText: the one list every path uses), newlines kept. */
export function cleanDescription(text: string): string {
  return cleanPageText(String(text)).trim();
}

/** Keywords whose value maps names (not keywords) to subschemas: their keys are never stripped. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const MAX_DEPTH = 32;

/**
 * A page schema as providers accept it: a fresh copy without `$schema` and `$id` (providers reject or
 * misread them), hidden characters removed from every string and key (cleanPageText), cycles and excessive depth cut, and always an object schema at the root (a tool's input is
 * an object of named parameters; OpenAI refuses anything else).
 */
export function cleanSchema(schema: JSONSchema | undefined): JSONSchema {
  const copy = (node: unknown, depth: number, seen: Set<object>, isNameMap: boolean): unknown => {
    if (Array.isArray(node)) {
      if (seen.has(node) || depth > MAX_DEPTH) return [];
      seen.add(node);
      const out = node.map((item) => copy(item, depth + 1, seen, false));
      seen.delete(node);
      return out;
    }
    // Every string a provider shows the model is page text: names, descriptions, enum values, patterns.
    if (typeof node === 'string') return cleanPageText(node);
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node) || depth > MAX_DEPTH) return {};
    seen.add(node);
    const out: Record<string, unknown> = {};
    for (const [rawKey, value] of Object.entries(node)) {
      const key = cleanPageText(rawKey);
      if (!isNameMap && (key === '$schema' || key === '$id')) continue;
      if (key === '__proto__') continue;
      out[key] = copy(value, depth + 1, seen, !isNameMap && NAME_MAPS.has(key));
    }
    seen.delete(node);
    return out;
  };
  const root = copy(schema ?? {}, 0, new Set(), false);
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return { type: 'object', properties: {} };
  const object = root as JSONSchema;
  if (object.type === undefined) return { type: 'object', properties: {}, ...object };
  if (object.type !== 'object') return { type: 'object', properties: {} };
  return object;
}
