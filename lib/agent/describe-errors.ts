import type { OutputUnit, Schema } from '@cfworker/json-schema';
import { isRecord } from '../shared/is-record';
import { resolveLocalRef } from '../schema/resolve-pointer';

/** Most enum values listed in a message. */
const MAX_LISTED = 12;

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

/**
 * The validator's errors as short, concrete messages for a small model to fix its call ("size: must be one of Small,
 * Medium, Large", "query: required"), summaries of nested failures and contradicting alternatives left out.
 */
export function describeErrors(errors: OutputUnit[], schema: Schema): string[] {
  // Failures inside an anyOf/oneOf branch contradict each other; say only that no form matched.
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.keywordLocation}/`);
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
  // The rule's own node: the keyword's location (a URI fragment, as the validator writes it) without its last step.
  const node = resolveLocalRef(schema, error.keywordLocation.replace(/\/[^/]*$/, ''));
  const rule = isRecord(node) ? node : {};
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
      const allowed = isRecord(rule.properties) ? Object.keys(rule.properties) : [];
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
