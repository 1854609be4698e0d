import { type OutputUnit, type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import { cleanPageText } from '../page-data/clean-page-text';
import { isRecord } from '../shared/is-record';
import { describeErrors } from './describe-errors';
import { sanitizeSchema } from '../schema/sanitize-schema';

/** The verdict on one tool call's arguments. */
type ValidateArgsResult = { ok: true } | { ok: false; message: string };

/** Most messages joined into one reply: a small model fixes a few things at a time. */
const MAX_MESSAGES = 4;

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
  if (!isRecord(schema)) return null;
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

/** The JSON Schema draft a schema names in `$schema` (2019-09 when it names none). */
export function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (id.includes('draft-04')) return '4';
  if (id.includes('draft-06') || id.includes('draft-07')) return '7';
  if (id.includes('2020-12')) return '2020-12';
  return '2019-09';
}
