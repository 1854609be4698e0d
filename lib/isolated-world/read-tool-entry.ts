/**
 * Reads one tool object the page handed over (native `getTools()` entries, a polyfill's, or a page's own
 * implementation's) into a FrameTool. Everything about it is untrusted: fields are read one by one (Chrome 160
 * returns non-clonable Tool objects), strings are bounded, the title and description lose hidden characters
 * (cleanPageText; the agent host cleans again, since a compromised frame skips this), and the inputSchema becomes a JSON-safe deep copy.
 * Empty members may be `null` (Chrome 160) or missing (Chromium 156); annotations may use either naming
 * (read-annotation-flags.ts).
 * A malformed schema is replaced by an empty object schema and flagged with `schemaError`, never fatal.
 * Returns undefined for something that is not a tool at all (no usable name).
 */
import type { JSONSchema } from '../agent/types';
import type { FrameTool } from '../messaging/router-messages';
import { cleanPageText, cleanPageValue } from '../page-data/clean-page-text';
import { thrownMessage } from '../page-data/describe-thrown';
import { isRecord } from '../shared/is-record';
import { SCHEMA_LIMITS } from '../schema/schema-limits';
import { readAnnotationFlags } from '../webmcp/read-annotation-flags';
import { readPageField } from '../webmcp/read-page-field';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { jsonSizeUpTo } from '../shared/json-size-up-to';

const MAX_NAME = 128;
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 4_000;
const MAX_SCHEMA_CHARS = 50_000;
const MAX_SCHEMA_DEPTH = SCHEMA_LIMITS.depth;
const EMPTY_SCHEMA: JSONSchema = { type: 'object', properties: {} };

/** Past this a read's entry is not measured further: its read is charged its whole time (read-pause-ms.ts). */
const CHEAP_MEASURE_CHARS = 16_384;

/**
 * The characters of an untrusted entry's description and input schema, for what a read carried (read-pause-ms.ts):
 * Infinity past {@link CHEAP_MEASURE_CHARS}, so measuring costs little (native's schemas are strings: one `length`).
 */
export function entryChars(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return 0;
  const description = readPageField(raw, 'description');
  const chars = typeof description === 'string' ? description.length : 0;
  return chars > CHEAP_MEASURE_CHARS
    ? Number.POSITIVE_INFINITY
    : chars + jsonSizeUpTo(readPageField(raw, 'inputSchema'), CHEAP_MEASURE_CHARS);
}

/**
 * Whether an untrusted tool entry's description or input schema is heavier than one tool may be (MAX_TOOL_BYTES):
 * such a tool is left out whole, not cut (a cut description may say the opposite of the whole). Measured only up
 * to the limit.
 */
export function isOversizedEntry(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const description = readPageField(raw, 'description');
  if (typeof description === 'string' && description.length > MAX_TOOL_BYTES) return true;
  const schema = readPageField(raw, 'inputSchema');
  return jsonSizeUpTo(schema, MAX_TOOL_BYTES) === Number.POSITIVE_INFINITY;
}

/** Sanitises one untrusted tool entry. */
export function readToolEntry(raw: unknown): FrameTool | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const name = readString(raw, 'name', MAX_NAME);
  if (!name) return undefined;
  // The name stays as the page wrote it (it is how the page finds the tool); the model sees a safe name made from it.
  const tool: FrameTool = {
    name,
    description: cleanPageText(readString(raw, 'description', MAX_DESCRIPTION) ?? '').trim(),
    inputSchema: EMPTY_SCHEMA,
  };
  const title = cleanPageText(readString(raw, 'title', MAX_TITLE), { oneLine: true });
  if (title) tool.title = title;
  const schema = readSchema(readPageField(raw, 'inputSchema'));
  tool.inputSchema = schema.schema;
  if (schema.error) tool.schemaError = schema.error;
  const { annotations, autosubmit } = readAnnotationFlags(readPageField(raw, 'annotations'));
  if (annotations) tool.annotations = annotations;
  // Reported for a declarative form's tool only (Chrome's newer annotations): without it, the form waits for the person.
  if (autosubmit !== undefined) {
    tool.declarative = true;
    if (!autosubmit) tool.needsConfirmation = true;
  }
  const outputSchema = readOutputSchema(readPageField(raw, 'outputSchema'));
  if (outputSchema) tool.outputSchema = outputSchema;
  return tool;
}

/**
 * A tool's outputSchema, for the inspector only (no model sees it): a JSON-safe copy of an object, or undefined
 * when there is none or it is not one, or it is larger than an inputSchema may be.
 */
function readOutputSchema(value: unknown): JSONSchema | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    const json = typeof value === 'string' ? value : JSON.stringify(value);
    if (json === undefined || json.length > MAX_SCHEMA_CHARS) return undefined;
    const copy: unknown = JSON.parse(json);
    return isRecord(copy) ? (copy as JSONSchema) : undefined;
  } catch {
    return undefined;
  }
}

function readString(target: object, key: string, max: number): string | undefined {
  const value = readPageField(target, key);
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/**
 * An inputSchema arrives as an object, as JSON text (older Chrome) or not at all (no parameters). The copy goes
 * through JSON so no getter, prototype or function of the page survives.
 */
function readSchema(value: unknown): { schema: JSONSchema; error?: string } {
  if (value === undefined || value === null) return { schema: EMPTY_SCHEMA };
  let json: string | undefined;
  try {
    json = typeof value === 'string' ? value : JSON.stringify(value);
  } catch (error) {
    return { schema: EMPTY_SCHEMA, error: `inputSchema is not JSON: ${thrownMessage(error, 200)}` };
  }
  if (json === undefined) return { schema: EMPTY_SCHEMA, error: 'inputSchema is not JSON' };
  if (json.length > MAX_SCHEMA_CHARS) {
    return { schema: EMPTY_SCHEMA, error: `inputSchema is too large (${json.length} characters; the limit is ${MAX_SCHEMA_CHARS})` };
  }
  let copy: unknown;
  try {
    copy = JSON.parse(json);
  } catch (error) {
    return { schema: EMPTY_SCHEMA, error: `inputSchema is not JSON: ${thrownMessage(error, 200)}` };
  }
  const problem = checkInputSchema(copy);
  // Every string of a schema is page text a model reads (names, descriptions, enum values): hidden characters out.
  return problem ? { schema: EMPTY_SCHEMA, error: problem } : { schema: cleanPageValue(copy) as JSONSchema };
}

/**
 * The structural checks a model provider would choke on: the root must describe an object, `properties` must map
 * names to schemas, `required` must list strings, and every subschema must be an object or a boolean.
 */
export function checkInputSchema(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'inputSchema must be a JSON object';
  const root = schema as Record<string, unknown>;
  if (root.type !== undefined && root.type !== 'object') return `inputSchema.type must be "object", not ${JSON.stringify(root.type)}`;
  return checkNode(root, 'inputSchema', 0);
}

function checkNode(node: unknown, path: string, depth: number): string | undefined {
  if (depth > MAX_SCHEMA_DEPTH) return `${path} is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
  if (typeof node === 'boolean') return undefined;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return `${path} must be a schema object`;
  const n = node as Record<string, unknown>;
  if (n.type !== undefined && typeof n.type !== 'string' && !(Array.isArray(n.type) && n.type.every((t) => typeof t === 'string'))) {
    return `${path}.type must be a string or a list of strings`;
  }
  if (n.properties !== undefined) {
    if (typeof n.properties !== 'object' || n.properties === null || Array.isArray(n.properties)) {
      return `${path}.properties must be an object mapping names to schemas`;
    }
    for (const [key, sub] of Object.entries(n.properties)) {
      const problem = checkNode(sub, `${path}.properties.${key}`, depth + 1);
      if (problem) return problem;
    }
  }
  if (n.required !== undefined && !(Array.isArray(n.required) && n.required.every((r) => typeof r === 'string'))) {
    return `${path}.required must be a list of property names`;
  }
  if (n.items !== undefined && !Array.isArray(n.items)) {
    const problem = checkNode(n.items, `${path}.items`, depth + 1);
    if (problem) return problem;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (n[key] === undefined) continue;
    const list = n[key];
    if (!Array.isArray(list)) return `${path}.${key} must be a list of schemas`;
    for (let i = 0; i < list.length; i++) {
      const problem = checkNode(list[i], `${path}.${key}[${i}]`, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}
