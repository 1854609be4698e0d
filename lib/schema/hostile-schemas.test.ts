import { describe, expect, it } from 'vitest';
import { compactSchema } from '../agent/compact-schema';
import { sanitizeSchema } from './sanitize-schema';
import { summarizeOutputSchema } from '../agent/summarize-output-schema';
import { lintJsonSchema } from '../audit/lint-json-schema';
import { cleanSchema } from './clean-schema';
import { readSchemaFields } from '../call-log/read-schema-fields';
import { checkInputSchema } from '../isolated-world/read-tool-entry';
import { secretPathsOf } from '../transcript/secret-paths-of';

/**
 * Every walker of a page's JSON Schema over the same hostile schemas, pinning what each returns. The schemas come
 * from pages: a rule that one walker reads differently from another (where a `$ref` leads, which keywords hold
 * subschemas, how deep to go, what a `__proto__` name is) is a gap a page can aim at, for example a password the
 * export's mask does not find while the validator and the model see it.
 */

/** A chain of `properties.next` `depth` levels deep, a password at the bottom. */
function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string', format: 'password' };
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { next: node } };
  return node;
}

/** `$defs` a0…a24, each pointing twice at the next: 2^25 paths through a schema of 25 nodes. */
function fanOut(): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < 25; i++) defs[`a${i}`] = { allOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
  defs.a25 = { type: 'string', format: 'password' };
  return { type: 'object', properties: { x: { $ref: '#/$defs/a0' } }, $defs: defs };
}

const REF_CYCLE = {
  type: 'object',
  properties: { head: { $ref: '#/$defs/node' } },
  $defs: {
    node: {
      type: 'object',
      properties: { value: { type: 'string' }, pin: { type: 'string', writeOnly: true }, next: { $ref: '#/$defs/node' } },
    },
  },
};

/** A property named `__proto__`, as JSON.parse makes it (an own property): a name like any other. */
const PROTO_KEYS = JSON.parse(
  '{"type":"object","properties":{"__proto__":{"type":"string","format":"password"},"note":{"type":"string"}},"required":["__proto__"]}',
) as Record<string, unknown>;

/**
 * `%`-encoded pointers (RFC 6901 § 6: a URI fragment is percent-decoded, then read as a pointer): `caf%C3%A9` names
 * `café`, `%2F` is a `/` (a step, not part of a name), and `/1` indexes an array.
 */
const ENCODED_POINTERS = {
  type: 'object',
  properties: {
    drink: { $ref: '#/$defs/caf%C3%A9' },
    card: { $ref: '#/$defs/a%2Fb' },
    size: { $ref: '#/$defs/sizes/1' },
  },
  $defs: {
    café: { type: 'string', enum: ['latte', 'mocha'] },
    'a/b': { type: 'string' },
    a: { b: { type: 'string', format: 'password' } },
    sizes: [{ type: 'string' }, { type: 'integer', minimum: 1 }],
  },
};

const UNEVALUATED_ITEMS = {
  type: 'object',
  properties: {
    codes: {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      unevaluatedItems: { type: 'string', format: 'password', pattern: '(a+)+$' },
    },
  },
};

const props = (schema: unknown) => (schema as { properties: Record<string, Record<string, unknown>> }).properties;
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('every JSON Schema walker over the same hostile schemas', () => {
  it('a $ref cycle: every walker ends, and all find the secret under it', () => {
    const sanitized = sanitizeSchema(REF_CYCLE);
    expect(JSON.stringify(sanitized).length).toBeLessThan(100_000);
    expect(props(compactSchema(REF_CYCLE)).head.type).toBe('object');
    expect(props(cleanSchema(REF_CYCLE)).head).toEqual({ $ref: '#/$defs/node' });
    expect(secretPathsOf(REF_CYCLE)).toContainEqual(['head', 'pin']);
    expect(lintJsonSchema(REF_CYCLE, 'inputSchema').map((i) => i.kind)).toEqual([]);
    expect(readSchemaFields(REF_CYCLE).fields.map((f) => f.path)).toEqual(['head']);
    expect(checkInputSchema(REF_CYCLE)).toBeUndefined();
  });

  it('depth 100: refused on reading, and every walker stops at the same depth', () => {
    const deep = { type: 'object', properties: { root: nested(100) } };
    expect(checkInputSchema(deep)).toMatch(/nested deeper than 24 levels/);
    // What reading refuses, no walker follows further: the validator's copy, the provider's copy and the mask stop
    // at the same depth (a secret past it masks the whole subtree where the walk stopped).
    expect(depthOf(sanitizeSchema(deep))).toBeLessThanOrEqual(2 * 24 + 2);
    expect(depthOf(cleanSchema(deep))).toBeLessThanOrEqual(2 * 24 + 2);
    const [secret] = secretPathsOf(deep);
    expect(secret).toHaveLength(24);
    expect(lintJsonSchema(deep, 'inputSchema').map((i) => i.kind)).toContain('too-large');
    expect(readSchemaFields(deep).truncated).toBe(true);
  });

  it('a $ref fan-out: bounded work, and the mask errs towards the whole input', () => {
    const schema = fanOut();
    expect(JSON.stringify(sanitizeSchema(schema)).length).toBeLessThan(2_000_000);
    expect(JSON.stringify(compactSchema(schema)).length).toBeLessThan(200_000);
    expect(secretPathsOf(schema)).toEqual([[]]);
    expect(lintJsonSchema(schema, 'inputSchema').map((i) => i.kind)).toEqual([]);
  });

  it('__proto__ as a property name: kept as an own property everywhere, never as a prototype', () => {
    for (const out of [sanitizeSchema(PROTO_KEYS), compactSchema(PROTO_KEYS), cleanSchema(PROTO_KEYS)]) {
      const properties = props(out);
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
      expect(Object.hasOwn(properties, '__proto__')).toBe(true);
      expect(Object.keys(properties)).toEqual(['__proto__', 'note']);
    }
    expect(secretPathsOf(PROTO_KEYS)).toEqual([['__proto__']]);
    expect(readSchemaFields(PROTO_KEYS).fields.map((f) => [f.path, f.secret])).toEqual([
      ['__proto__', true],
      ['note', false],
    ]);
    expect(lintJsonSchema(PROTO_KEYS, 'inputSchema').map((i) => i.kind)).toEqual([]);
  });

  it('%-encoded pointers and array indexes: every walker resolves them to the same place', () => {
    const compact = props(compactSchema(ENCODED_POINTERS));
    expect(compact.drink).toEqual({ type: 'string', enum: ['latte', 'mocha'] });
    expect(compact.size).toEqual({ type: 'integer', minimum: 1 });
    expect(compact.card).toEqual({ type: 'string', format: 'password' });
    const sanitized = props(sanitizeSchema(ENCODED_POINTERS));
    expect(sanitized.drink).toEqual({ allOf: [{ type: 'string', enum: ['latte', 'mocha'] }] });
    expect(sanitized.size).toEqual({ allOf: [{ type: 'integer', minimum: 1 }] });
    expect(sanitized.card).toEqual({ allOf: [{ type: 'string', format: 'password' }] });
    // The mask finds the password exactly where the validator and the prompt read it.
    expect(secretPathsOf(ENCODED_POINTERS)).toEqual([['card']]);
    expect(lintJsonSchema(ENCODED_POINTERS, 'inputSchema').filter((i) => i.kind.startsWith('ref'))).toEqual([]);
  });

  it('unevaluatedItems holds a subschema for every walker', () => {
    expect(props(sanitizeSchema(UNEVALUATED_ITEMS)).codes.unevaluatedItems).toEqual({ type: 'string', format: 'password' });
    expect(secretPathsOf(UNEVALUATED_ITEMS)).toEqual([['codes', '*']]);
    expect(lintJsonSchema(UNEVALUATED_ITEMS, 'inputSchema').map((i) => [i.kind, i.path])).toEqual([
      ['pattern-unchecked', 'inputSchema.properties.codes.unevaluatedItems.pattern'],
    ]);
    expect(summarizeOutputSchema(UNEVALUATED_ITEMS)).toBe('{codes?: unknown[]}');
  });
});
