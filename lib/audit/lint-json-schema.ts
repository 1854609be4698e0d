import { type Schema, Validator } from '@cfworker/json-schema';
import { draftOf } from '../agent/validate-args';
import { isSafePattern } from '../schema/is-safe-pattern';
import { resolveLocalRef } from '../schema/resolve-pointer';
import { SCHEMA_LIMITS } from '../schema/schema-limits';
import { DEFINITION_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from '../schema/subschema-keywords';
import { isRecord } from '../shared/is-record';
import type { AuditSeverity } from './audit-types';
import { quote } from './finding-for';

/** One problem of a JSON Schema, before it becomes a finding about a tool. */
interface SchemaIssue {
  /** The rule's name within input-schema/… or output-schema/…. */
  kind: string;
  severity: AuditSeverity;
  /** Where: "inputSchema.properties.size.enum". */
  path: string;
  message: string;
  why: string;
  fix: string;
}

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
/** Keywords whose value maps names to subschemas: the definitions are linted too, where they are. */
const SUBSCHEMA_MAP = [...SUBSCHEMA_MAP_KEYWORDS, ...DEFINITION_KEYWORDS];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];
/** Most issues of one kind reported per schema: a generated schema can repeat one mistake a thousand times. */
const MAX_PER_KIND = 5;

/**
 * The problems of one tool's JSON Schema that stop an agent from using it well: parts that do not compile, `$ref`s
 * that lead nowhere, `required` names no property has, enums that are empty or of another type than they declare,
 * type names JSON Schema does not have, patterns the agent's validator cannot check, keyword values of the wrong
 * shape (the validator ignores them), defaults outside their own enum or type, schemas too large for the validator
 * (lib/schema/schema-limits.ts), and, for an input schema, `anyOf`/`oneOf`/`allOf` at the top level.
 *
 * `root` names the schema in paths and decides the top-level rule (only a tool's input must be a plain object).
 * Bounded: at most SCHEMA_LIMITS.nodes nodes are looked at, whatever the page sent.
 */
export function lintJsonSchema(schema: unknown, root: 'inputSchema' | 'outputSchema'): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const perKind = new Map<string, number>();
  const add = (issue: SchemaIssue) => {
    const n = perKind.get(issue.kind) ?? 0;
    perKind.set(issue.kind, n + 1);
    if (n < MAX_PER_KIND) issues.push(issue);
  };
  if (typeof schema === 'boolean' || schema === undefined) return issues;
  if (!isRecord(schema)) {
    add({
      kind: 'not-a-schema',
      severity: 'error',
      path: root,
      message: `${root} is not a JSON Schema object.`,
      why: 'An agent cannot tell what the tool takes or gives back.',
      fix: `Give ${root} as a JSON Schema object, for example { "type": "object", "properties": { … } }.`,
    });
    return issues;
  }

  let nodes = 0;
  let tooLarge = false;
  const visit = (node: unknown, path: string, depth: number) => {
    if (!isRecord(node)) return;
    if (++nodes > SCHEMA_LIMITS.nodes || depth > SCHEMA_LIMITS.depth) {
      tooLarge = true;
      return;
    }
    lintNode(node, path, depth === 0, schema, root, add);
    for (const key of SUBSCHEMA_KEYWORDS) if (Object.hasOwn(node, key)) visit(node[key], `${path}.${key}`, depth + 1);
    for (const key of SUBSCHEMA_LIST_KEYWORDS) {
      const list = node[key];
      if (Array.isArray(list)) for (const [i, sub] of list.entries()) visit(sub, `${path}.${key}[${i}]`, depth + 1);
    }
    for (const key of SUBSCHEMA_MAP) {
      const map = node[key];
      if (isRecord(map)) for (const [name, sub] of Object.entries(map)) visit(sub, `${path}.${key}.${quote(name, 60)}`, depth + 1);
    }
    const items = node.items;
    if (Array.isArray(items)) for (const [i, sub] of items.entries()) visit(sub, `${path}.items[${i}]`, depth + 1);
    else visit(items, `${path}.items`, depth + 1);
    // `dependencies`: a name's subschema (its list form names properties, not schemas).
    if (isRecord(node.dependencies)) {
      for (const [name, sub] of Object.entries(node.dependencies)) visit(sub, `${path}.dependencies.${quote(name, 60)}`, depth + 1);
    }
  };
  visit(schema, root, 0);

  if (tooLarge) {
    add({
      kind: 'too-large',
      severity: 'warning',
      path: root,
      message: `${root} has more than ${SCHEMA_LIMITS.nodes} schema nodes or is nested deeper than ${SCHEMA_LIMITS.depth} levels.`,
      why: 'The agent checks arguments against a bounded copy of the schema: the parts past the bounds accept anything.',
      fix: 'Make the schema smaller and flatter: a tool an agent calls well takes a few named parameters.',
    });
  }
  const compiled = compileProblem(schema);
  if (compiled) {
    add({
      kind: 'does-not-compile',
      severity: 'error',
      path: root,
      message: `${root} does not compile: ${compiled}`,
      why: 'No validator can check anything against it, and a provider may refuse the whole request.',
      fix: 'Run the schema through a JSON Schema validator and fix what it reports.',
    });
  }
  return issues;
}

function lintNode(
  node: Record<string, unknown>,
  path: string,
  atRoot: boolean,
  rootSchema: Record<string, unknown>,
  root: 'inputSchema' | 'outputSchema',
  add: (issue: SchemaIssue) => void,
): void {
  if (atRoot && root === 'inputSchema') {
    const combinators = ['anyOf', 'oneOf', 'allOf'].filter((key) => key in node);
    if (combinators.length) {
      add({
        kind: 'root-combinator',
        severity: 'error',
        path,
        message: `inputSchema has ${combinators.join(' and ')} at its top level.`,
        why: "Anthropic's API refuses a tool whose input schema has oneOf, allOf or anyOf at the top level, so a cloud run on Claude fails; other providers and small models read such a schema poorly.",
        fix: 'Make the top level one object with named properties; move the alternatives into a property (for example an enum "mode").',
      });
    }
  }

  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (ref.startsWith('#')) {
      if (resolveLocalRef(rootSchema, ref) === undefined) {
        add({
          kind: 'ref-unresolved',
          severity: 'error',
          path: `${path}.$ref`,
          message: `$ref "${quote(ref, 100)}" points to nothing in the schema.`,
          why: 'The agent cannot tell what this part must hold, and its validator accepts anything there.',
          fix: 'Point the $ref at a definition that exists (for example "#/$defs/item"), or write the schema in place.',
        });
      }
    } else {
      add({
        kind: 'ref-remote',
        severity: 'warning',
        path: `${path}.$ref`,
        message: `$ref "${quote(ref, 100)}" points outside the schema.`,
        why: 'Agents do not fetch remote schemas: the model is not told what this part holds, and nothing checks it.',
        fix: 'Copy the referenced schema into $defs and point to it with "#/$defs/…".',
      });
    }
  }

  const declared = declaredTypes(node.type);
  if (declared.unknown.length) {
    add({
      kind: 'type-unknown',
      severity: 'error',
      path: `${path}.type`,
      message: `"${declared.unknown.map((t) => quote(t, 30)).join('", "')}" is not a JSON Schema type.`,
      why: 'The model cannot tell what value to give, and the validator ignores the type.',
      fix: 'Use one of string, number, integer, boolean, object, array or null (a date is { "type": "string", "format": "date" }).',
    });
  }

  const properties = isRecord(node.properties) ? node.properties : undefined;
  if (Array.isArray(node.required) && node.required.every((r) => typeof r === 'string')) {
    const composed = ['allOf', 'anyOf', 'oneOf', '$ref', 'if', 'dependentSchemas'].some((key) => key in node);
    const missing = (node.required as string[]).filter((name) => !properties || !Object.hasOwn(properties, name));
    if (missing.length && !composed) {
      add({
        kind: 'required-unknown',
        severity: 'error',
        path: `${path}.required`,
        message: `required names ${missing.map((n) => `"${quote(n, 40)}"`).join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not among the properties.`,
        why: 'The model is told the argument is required but not what it is, so no call it writes can be right.',
        fix: `Declare ${missing.length === 1 ? 'it' : 'them'} under properties with a type and a description, or take ${missing.length === 1 ? 'it' : 'them'} out of required.`,
      });
    }
  }

  if ('enum' in node) lintEnum(node, path, declared.known, add);

  for (const key of ['pattern'] as const) {
    if (!(key in node)) continue;
    const value = node[key];
    if (typeof value !== 'string') continue;
    const problem = patternProblem(value);
    if (problem) add({ ...problem, path: `${path}.pattern` });
  }
  if (isRecord(node.patternProperties)) {
    for (const name of Object.keys(node.patternProperties)) {
      const problem = patternProblem(name);
      if (problem) add({ ...problem, path: `${path}.patternProperties` });
    }
  }

  const wrong: string[] = [];
  for (const key of NUMBERS) {
    if (key in node && !(typeof node[key] === 'number' || (key.startsWith('exclusive') && typeof node[key] === 'boolean'))) wrong.push(key);
  }
  for (const key of COUNTS) {
    if (key in node && !(Number.isInteger(node[key]) && (node[key] as number) >= 0)) wrong.push(key);
  }
  if ('format' in node && typeof node.format !== 'string') wrong.push('format');
  if ('uniqueItems' in node && typeof node.uniqueItems !== 'boolean') wrong.push('uniqueItems');
  if ('properties' in node && !properties) wrong.push('properties');
  if ('required' in node && !(Array.isArray(node.required) && node.required.every((r) => typeof r === 'string'))) wrong.push('required');
  if (wrong.length) {
    add({
      kind: 'keyword-invalid',
      severity: 'error',
      path,
      message: `${wrong.join(', ')} ${wrong.length === 1 ? 'has' : 'have'} a value of the wrong kind (for example a number written as text).`,
      why: "The agent's validator ignores such keywords, so values are not checked against them, and a provider may refuse the schema.",
      fix: 'Give minimum, maximum and multipleOf as numbers, the min…/max… counts as whole numbers, format as text, required as a list of names.',
    });
  }

  if ('default' in node) {
    const value = node.default;
    const inEnum = !Array.isArray(node.enum) || node.enum.some((v) => sameJson(v, value));
    const ofType = declared.known.length === 0 || declared.known.some((t) => isOfType(value, t));
    if (!inEnum || !ofType) {
      add({
        kind: 'default-invalid',
        severity: 'warning',
        path: `${path}.default`,
        message: `The default ${quote(jsonText(value), 60)} is ${!inEnum ? 'not one of the enum values' : `not of type ${declared.known.join(' or ')}`}.`,
        why: 'Small models copy defaults into their calls: this one would be refused.',
        fix: 'Make the default one of the allowed values, or drop it.',
      });
    }
  }
}

function lintEnum(node: Record<string, unknown>, path: string, types: string[], add: (issue: SchemaIssue) => void): void {
  const values = node.enum;
  if (!Array.isArray(values)) {
    add({
      kind: 'keyword-invalid',
      severity: 'error',
      path: `${path}.enum`,
      message: 'enum is not a list.',
      why: "The agent's validator ignores it, and the model is not told which values are allowed.",
      fix: 'Give enum as a list of the allowed values.',
    });
    return;
  }
  if (values.length === 0) {
    add({
      kind: 'enum-empty',
      severity: 'error',
      path: `${path}.enum`,
      message: 'enum is an empty list.',
      why: 'No value can ever pass: every call that gives this argument fails.',
      fix: 'List the allowed values, or drop enum.',
    });
    return;
  }
  if (types.length === 0) {
    add({
      kind: 'enum-untyped',
      severity: 'warning',
      path: `${path}.type`,
      message: 'An enum without a type.',
      why: 'Small models and some providers need the type to write the value correctly ("2" or 2).',
      fix: `Add "type": "${jsonType(values[0])}" beside the enum.`,
    });
    return;
  }
  const off = values.filter((v) => !types.some((t) => isOfType(v, t)));
  if (off.length) {
    add({
      kind: 'enum-type',
      severity: 'error',
      path: `${path}.enum`,
      message: `enum values ${off
        .slice(0, 3)
        .map((v) => quote(jsonText(v), 30))
        .join(', ')} are not of the declared type ${types.join(' or ')}.`,
      why: 'Those values can never pass the schema, and the model is told two different things.',
      fix: 'Make every enum value of the declared type, or correct the type.',
    });
  }
}

function patternProblem(pattern: string): Omit<SchemaIssue, 'path'> | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return {
      kind: 'pattern-invalid',
      severity: 'error',
      message: `The pattern "${quote(pattern, 60)}" is not a valid regular expression (with the u flag, as JSON Schema reads it).`,
      why: 'Validators refuse or skip it, so the model is told nothing reliable about the format.',
      fix: 'Fix the expression (JSON Schema patterns are ECMAScript regular expressions with Unicode).',
    };
  }
  if (isSafePattern(pattern)) return undefined;
  return {
    kind: 'pattern-unchecked',
    severity: 'warning',
    message: `The pattern "${quote(pattern, 60)}" is too long or has a nested quantifier or a back-reference.`,
    why: "The agent's validator skips such patterns (they can take exponential time), so values are not checked against it.",
    fix: 'Use a simpler pattern without repeated groups that repeat inside, or describe the format in words.',
  };
}

function declaredTypes(type: unknown): { known: string[]; unknown: string[] } {
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  return { known: list.filter((t) => TYPES.has(t)), unknown: list.filter((t) => !TYPES.has(t)) };
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    default:
      return typeof value === type;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value === 'object' ? 'object' : typeof value;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return jsonText(a) === jsonText(b);
}

/** Why the schema does not compile in an eval-free validator (the agent's), or undefined when it does. */
function compileProblem(schema: Record<string, unknown>): string | undefined {
  try {
    new Validator(schema as Schema, draftOf(schema), false).validate({});
    return undefined;
  } catch (error) {
    const message =
      error instanceof RangeError ? 'its $refs lead round in a circle' : error instanceof Error ? error.message : String(error);
    return quote(message, 200);
  }
}
