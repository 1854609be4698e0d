import { cleanPageText } from '../page-data/clean-page-text';
import { SCHEMA_VIEW_LIMITS } from '../schema/schema-limits';
import { isRecord } from '../shared/is-record';
import type { JSONSchema } from './types';

/** The most characters a tool's result shape may add to what the model reads of it. */
export const MAX_RETURNS_CHARS = 200;
const MAX_DEPTH = SCHEMA_VIEW_LIMITS.returnsDepth;
const MAX_PROPERTIES = 8;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A tool's outputSchema (WebMCP, Chrome 159) as the one-line shape the model reads beside the tool, e.g.
 * `{total: number, items: {id: string, qty?: number}[]}`: enough to plan the next call on the result without paying
 * for the whole schema. Nested past three levels reads `…`; at most eight properties a level; the whole is cut at
 * MAX_RETURNS_CHARS. Every name and enum value is page text, cleaned as the inputSchema's are. Undefined when the
 * schema says nothing a model could use.
 */
export function summarizeOutputSchema(schema: JSONSchema | undefined): string | undefined {
  if (!isRecord(schema)) return undefined;
  const shape = shapeOf(schema, 0);
  if (shape === 'unknown') return undefined;
  const line = cleanPageText(shape, { oneLine: true });
  return line.length > MAX_RETURNS_CHARS ? `${line.slice(0, MAX_RETURNS_CHARS - 1)}…` : line;
}

function shapeOf(node: unknown, depth: number): string {
  if (!isRecord(node)) return 'unknown';
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum.slice(0, 6).map(literal).join(' | ');
  if ('const' in node) return literal(node.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0)
      return options
        .slice(0, 4)
        .map((o) => shapeOf(o, depth))
        .join(' | ');
  }
  const type = Array.isArray(node.type) ? node.type.filter((t) => typeof t === 'string').join(' | ') : node.type;
  if (type === 'array' || (type === undefined && isRecord(node.items))) {
    if (depth >= MAX_DEPTH) return '…[]';
    const item = shapeOf(node.items, depth + 1);
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  if (type === 'object' || (type === undefined && isRecord(node.properties))) return objectShape(node, depth);
  return typeof type === 'string' && type !== '' ? type : 'unknown';
}

function objectShape(node: Record<string, unknown>, depth: number): string {
  if (!isRecord(node.properties)) return 'object';
  if (depth >= MAX_DEPTH) return '{…}';
  const required = new Set(Array.isArray(node.required) ? node.required.filter((r) => typeof r === 'string') : []);
  const entries = Object.entries(node.properties);
  const fields = entries.slice(0, MAX_PROPERTIES).map(([name, sub]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${key}${required.has(name) ? '' : '?'}: ${shapeOf(sub, depth + 1)}`;
  });
  if (entries.length > MAX_PROPERTIES) fields.push('…');
  return `{${fields.join(', ')}}`;
}

function literal(value: unknown): string {
  const json = JSON.stringify(value);
  return json === undefined ? 'unknown' : json;
}
