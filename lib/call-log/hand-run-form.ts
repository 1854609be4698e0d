import { readSchemaFields, type SchemaField } from './read-schema-fields';
import { errorMessage } from '../shared/error-message';

/** One control of the run-by-hand form, for one top-level property of a tool's input schema. */
export interface HandRunControl {
  name: string;
  /** text, number, select (an enum), checkbox (a boolean), json (arrays, objects, anything else). */
  kind: 'text' | 'number' | 'select' | 'checkbox' | 'json';
  required: boolean;
  description?: string;
  /** Integers only (kind number). */
  integer?: boolean;
  /** The enum's values (kind select), in the schema's order. */
  options?: unknown[];
  /** The JSON type a json control must hold, when the schema says. */
  jsonType?: 'array' | 'object';
  /** Shown masked, and never exported. */
  secret: boolean;
  /** The schema's default, as the control's starting value. */
  initial: string | boolean;
}

/** What the person typed or picked: a string per text/number/select/json control, a boolean per checkbox. */
type HandRunValues = Record<string, string | boolean>;

type HandRunInput = { ok: true; input: Record<string, unknown> } | { ok: false; errors: { name: string; message: string }[] };

/**
 * The form for running a tool by hand, built from its input schema: text for strings, number for numbers and
 * integers, a select for enums, a checkbox for booleans, and validated JSON for arrays, objects and anything else.
 */
export function buildHandRunForm(schema: unknown): HandRunControl[] {
  return readSchemaFields(schema)
    .fields.filter((f) => f.depth === 0)
    .map(toControl);
}

function toControl(field: SchemaField): HandRunControl {
  const base = {
    name: field.path,
    required: field.required,
    secret: field.secret,
    ...(field.description ? { description: field.description } : {}),
  };
  if (field.enum && field.enum.length > 0) {
    const index = field.default === undefined ? -1 : field.enum.findIndex((v) => Object.is(v, field.default));
    return { ...base, kind: 'select', options: field.enum, initial: index >= 0 ? String(index) : '' };
  }
  const simple = field.type.split(' | ').filter((t) => t !== 'null');
  const only = simple.length === 1 ? simple[0] : undefined;
  if (only === 'string') return { ...base, kind: 'text', initial: typeof field.default === 'string' ? field.default : '' };
  if (only === 'number' || only === 'integer') {
    return {
      ...base,
      kind: 'number',
      integer: only === 'integer',
      initial: typeof field.default === 'number' ? String(field.default) : '',
    };
  }
  if (only === 'boolean') return { ...base, kind: 'checkbox', initial: field.default === true };
  return {
    ...base,
    kind: 'json',
    ...(only === 'array' || only === 'object' ? { jsonType: only } : {}),
    initial: field.default === undefined ? '' : JSON.stringify(field.default, null, 2),
  };
}

/**
 * Turns the form's values into the tool's input. An empty optional control is left out; an empty required one is
 * an error ("required"), as are a number that is not one and JSON that does not parse or has the wrong type. The
 * result is then checked against the schema with the same validator the agent's calls go through.
 */
export function readHandRunForm(controls: readonly HandRunControl[], values: HandRunValues): HandRunInput {
  const input: Record<string, unknown> = {};
  const errors: { name: string; message: string }[] = [];
  for (const control of controls) {
    const raw = values[control.name] ?? control.initial;
    if (control.kind === 'checkbox') {
      input[control.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    if (text.trim() === '') {
      if (control.required) errors.push({ name: control.name, message: 'required' });
      continue;
    }
    if (control.kind === 'text') input[control.name] = text;
    else if (control.kind === 'number') {
      const value = Number(text);
      if (!Number.isFinite(value)) errors.push({ name: control.name, message: 'must be a number' });
      else if (control.integer && !Number.isInteger(value)) errors.push({ name: control.name, message: 'must be a whole number' });
      else input[control.name] = value;
    } else if (control.kind === 'select') {
      const index = Number(text);
      if (!control.options || !Number.isInteger(index) || index < 0 || index >= control.options.length) {
        errors.push({ name: control.name, message: 'pick one of the values' });
      } else input[control.name] = control.options[index];
    } else {
      try {
        const value = JSON.parse(text) as unknown;
        const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
        if (control.jsonType && actual !== control.jsonType)
          errors.push({ name: control.name, message: `must be a JSON ${control.jsonType}` });
        else input[control.name] = value;
      } catch (error) {
        errors.push({ name: control.name, message: `is not valid JSON (${errorMessage(error)})` });
      }
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, input };
}
