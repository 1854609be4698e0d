import { describe, expect, it } from 'vitest';
import { lintJsonSchema } from './lint-json-schema';

const kinds = (schema: unknown, root: 'inputSchema' | 'outputSchema' = 'inputSchema') =>
  lintJsonSchema(schema, root).map((i) => `${i.kind} @ ${i.path}`);

const GOOD = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to look for.', pattern: '^[a-z ]+$' },
    size: { type: 'string', enum: ['S', 'M', 'L'], default: 'M' },
    count: { type: 'integer', minimum: 1, maximum: 20 },
    item: { $ref: '#/$defs/item' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
  },
  required: ['query'],
  $defs: { item: { type: 'object', properties: { id: { type: 'string' } } } },
};

describe('lintJsonSchema', () => {
  it('finds nothing in a well-formed schema, with refs, enums, patterns and defaults', () => {
    expect(kinds(GOOD)).toEqual([]);
    expect(kinds({ type: 'object', properties: {} })).toEqual([]);
    expect(kinds(undefined)).toEqual([]);
  });

  it('flags a required name no property has', () => {
    expect(kinds({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] })).toEqual([
      'required-unknown @ inputSchema.required',
    ]);
    // Declared through a combinator: not flagged (the property may live in a branch).
    expect(kinds({ type: 'object', allOf: [{ properties: { b: { type: 'string' } } }], required: ['b'] }, 'outputSchema')).toEqual([]);
  });

  it('flags empty enums, enums of another type than declared, and untyped enums', () => {
    expect(kinds({ type: 'object', properties: { s: { type: 'string', enum: [] } } })).toEqual([
      'enum-empty @ inputSchema.properties.s.enum',
    ]);
    expect(kinds({ type: 'object', properties: { s: { type: 'string', enum: ['a', 2] } } })).toEqual([
      'enum-type @ inputSchema.properties.s.enum',
    ]);
    expect(kinds({ type: 'object', properties: { s: { enum: ['a', 'b'] } } })).toEqual(['enum-untyped @ inputSchema.properties.s.type']);
    expect(kinds({ type: 'object', properties: { n: { type: 'integer', enum: [1, 2] } } })).toEqual([]);
  });

  it('flags type names JSON Schema does not have', () => {
    expect(kinds({ type: 'object', properties: { d: { type: 'date' } } })).toEqual(['type-unknown @ inputSchema.properties.d.type']);
  });

  it('flags refs that lead nowhere, and refs to other documents', () => {
    expect(kinds({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toContain(
      'ref-unresolved @ inputSchema.properties.a.$ref',
    );
    expect(kinds({ type: 'object', properties: { a: { $ref: 'https://example.com/item.json' } } })).toContain(
      'ref-remote @ inputSchema.properties.a.$ref',
    );
  });

  it('flags patterns that do not compile, and those the validator skips', () => {
    expect(kinds({ type: 'object', properties: { a: { type: 'string', pattern: '([a-z' } } })).toContain(
      'pattern-invalid @ inputSchema.properties.a.pattern',
    );
    expect(kinds({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } })).toEqual([
      'pattern-unchecked @ inputSchema.properties.a.pattern',
    ]);
  });

  it('flags keyword values of the wrong kind, and defaults outside their enum or type', () => {
    expect(kinds({ type: 'object', properties: { n: { type: 'number', minimum: '1' } } })).toEqual([
      'keyword-invalid @ inputSchema.properties.n',
    ]);
    expect(kinds({ type: 'object', properties: { s: { type: 'string', enum: ['a'], default: 'b' } } })).toEqual([
      'default-invalid @ inputSchema.properties.s.default',
    ]);
    expect(kinds({ type: 'object', properties: { n: { type: 'integer', default: 'ten' } } })).toEqual([
      'default-invalid @ inputSchema.properties.n.default',
    ]);
  });

  it('flags anyOf/oneOf/allOf at the top of an input schema only', () => {
    const alternatives = { type: 'object', anyOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } } }] };
    expect(kinds(alternatives)).toEqual(['root-combinator @ inputSchema']);
    expect(kinds(alternatives, 'outputSchema')).toEqual([]);
  });

  it('flags a schema that is no object, and one that does not compile', () => {
    expect(kinds('a string', 'outputSchema')).toEqual(['not-a-schema @ outputSchema']);
    expect(kinds({ $ref: '#' }, 'outputSchema')).toContain('does-not-compile @ outputSchema');
  });

  it('flags a schema too large for the validator, and stays bounded', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 6000; i++) properties[`p${i}`] = { type: 'string' };
    const started = performance.now();
    expect(kinds({ type: 'object', properties })).toEqual(['too-large @ inputSchema']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reports at most five issues of one kind', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) properties[`p${i}`] = { type: 'text' };
    expect(kinds({ type: 'object', properties })).toHaveLength(5);
  });
});
