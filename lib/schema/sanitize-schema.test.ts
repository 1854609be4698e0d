import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeSchema } from './sanitize-schema';
import { validateArgs } from '../agent/validate-args';

describe('sanitizeSchema, through validateArgs', () => {
  it('follows local $refs and $defs', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { size: { $ref: '#/$defs/size' } },
      $defs: { size: { enum: ['S', 'M'] } },
    };
    expect(validateArgs(schema, { size: 'S' })).toEqual({ ok: true });
    expect(validateArgs(schema, { size: 'L' })).toEqual({ ok: false, message: 'size: must be one of S, M' });
  });

  it('follows draft-07 definitions', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { $ref: '#/definitions/n' } },
      definitions: { n: { type: 'number' } },
    };
    expect(validateArgs(schema, { n: 'x' })).toEqual({ ok: false, message: 'n: must be a number' });
  });
});

describe('sanitizeSchema, through validateArgs: hostile schemas', () => {
  it('survives a cyclic schema object', () => {
    const schema: Record<string, unknown> = { type: 'object', required: ['a'] };
    schema.properties = { a: schema };
    expect(validateArgs(schema, {}).ok).toBe(false);
    // The cycle's back edge accepts anything: checking stops there instead of recursing forever.
    expect(validateArgs(schema, { a: { a: {} } })).toEqual({ ok: true });
  });

  it('survives self and mutual $ref cycles', () => {
    expect(validateArgs({ $ref: '#' }, { x: 1 })).toEqual({ ok: true });
    const mutual = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' };
    expect(validateArgs(mutual, {})).toEqual({ ok: true });
  });

  it('keeps checking recursive structures one level deep', () => {
    const tree = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    };
    expect(validateArgs(tree, { name: 'a', children: [{ name: 'b' }] })).toEqual({ ok: true });
    expect(validateArgs(tree, { name: 1 }).ok).toBe(false);
  });

  it('ignores unresolvable and remote $refs', () => {
    expect(validateArgs({ type: 'object', properties: { a: { $ref: '#/nope' } } }, { a: 1 })).toEqual({ ok: true });
    expect(validateArgs({ $ref: 'https://evil.example/schema.json' }, { a: 1 })).toEqual({ ok: true });
  });

  it('stays bounded on an exponential $ref expansion', () => {
    const defs: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 39; i >= 0; i--) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, $defs: defs };
    const start = performance.now();
    validateArgs(schema, { a: 'x' });
    validateArgs(schema, { a: 1 });
    // Not a timing assertion of speed, only of termination: 2^40 expansions would never finish.
    expect(performance.now() - start).toBeLessThan(10_000);
  });

  it('survives a huge schema', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) properties[`p${i}`] = { type: 'string', description: 'x'.repeat(50) };
    const result = validateArgs({ type: 'object', properties }, { p1: 2 });
    expect(typeof result.ok).toBe('boolean');
  });

  it('drops invalid and catastrophic patterns', () => {
    expect(validateArgs({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, { a: 'x' })).toEqual({ ok: true });
    const evil = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    const start = performance.now();
    expect(validateArgs(evil, { a: `${'a'.repeat(40)}!` })).toEqual({ ok: true });
    const counted = { type: 'object', properties: { a: { type: 'string', pattern: '^(.*a){25}$' } } };
    expect(validateArgs(counted, { a: 'a'.repeat(30) })).toEqual({ ok: true });
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(validateArgs({ type: 'object', properties: { a: { pattern: '^[a-z]+$' } } }, { a: 'A1' })).toEqual({
      ok: false,
      message: 'a: must match the pattern ^[a-z]+$',
    });
  });

  it('ignores keyword values of the wrong shape', () => {
    const schema = { type: 'objekt', required: 'query', enum: 'x', properties: [1, 2], minimum: 'big', items: 5 };
    expect(validateArgs(schema, { any: 1 })).toEqual({ ok: true });
    expect(validateArgs({ type: 'object', properties: { q: 7 } }, { q: 1 })).toEqual({ ok: true });
  });

  it('never throws on arbitrary schemas and arguments', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.jsonValue({ maxDepth: 4 }), (schema, args) => {
        const result = validateArgs(schema, args);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });

  it('never throws on arbitrary schema-shaped objects', () => {
    const keyword = fc.constantFrom(
      'type',
      'properties',
      'required',
      'enum',
      '$ref',
      'items',
      'anyOf',
      'pattern',
      'minimum',
      'const',
      'not',
      'if',
      'then',
      'additionalProperties',
      '$defs',
      'format',
    );
    const schemaArb = fc.letrec((tie) => ({
      node: fc.dictionary(keyword, fc.oneof(fc.jsonValue({ maxDepth: 2 }), tie('node'), fc.array(tie('node'), { maxLength: 3 })), {
        maxKeys: 5,
      }),
    })).node;
    fc.assert(
      fc.property(schemaArb, fc.jsonValue({ maxDepth: 3 }), (schema, args) => {
        expect(typeof validateArgs(schema, args).ok).toBe('boolean');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });
});

describe('sanitizeSchema, on its own', () => {
  it('inlines a local $ref through allOf, keeping its siblings, and drops identifiers and definitions', () => {
    const schema = { $id: 'x', $defs: { n: { type: 'number' } }, properties: { a: { $ref: '#/$defs/n', minimum: 1 } } };
    expect(sanitizeSchema(schema)).toEqual({ properties: { a: { allOf: [{ type: 'number' }], minimum: 1 } } });
  });

  it('turns a reference back into itself, a remote reference and an unsafe pattern into "anything goes"', () => {
    // Inlined once; the reference inside the inlined copy points back into itself and accepts anything.
    expect(sanitizeSchema({ $ref: '#' })).toEqual({ allOf: [{}] });
    expect(sanitizeSchema({ $ref: 'https://evil.example/s.json', type: 'string' })).toEqual({ type: 'string' });
    expect(sanitizeSchema({ type: 'string', pattern: '^(a+)+$' })).toEqual({ type: 'string' });
    expect(sanitizeSchema({ patternProperties: { '(a|aa)*': {}, '^x': { type: 'string' } } })).toEqual({
      patternProperties: { '^x': { type: 'string' } },
    });
  });

  it('drops keyword values of the wrong shape and annotations', () => {
    expect(sanitizeSchema({ type: 'objekt', required: 'q', multipleOf: 0, minimum: 1, title: 't', __proto__x: 1 })).toEqual({ minimum: 1 });
  });

  it('cuts nesting deeper than 24 levels to "anything goes"', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 30; i++) deep = { not: deep };
    let out = sanitizeSchema(deep) as Record<string, unknown>;
    let depth = 0;
    while (typeof out.not === 'object') {
      out = out.not as Record<string, unknown>;
      depth++;
    }
    expect(depth).toBe(24);
    expect(out.not).toBe(true);
  });
});
