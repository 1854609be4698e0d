import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateArgs } from './validate-args';

const shirt = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    size: { type: 'string', enum: ['Small', 'Medium', 'Large'] },
    count: { type: 'integer', minimum: 1, maximum: 10 },
    when: { type: 'string', format: 'date' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('validateArgs', () => {
  it('accepts arguments that match', () => {
    expect(validateArgs(shirt, { query: 'shirt', size: 'Small', count: 2, tags: ['blue'] })).toEqual({ ok: true });
  });

  it('names a missing required parameter', () => {
    expect(validateArgs(shirt, { size: 'Small' })).toEqual({ ok: false, message: 'query: required' });
  });

  it('treats missing arguments as an empty object', () => {
    expect(validateArgs(shirt, undefined)).toEqual({ ok: false, message: 'query: required' });
  });

  it('lists the allowed values of an enum', () => {
    expect(validateArgs(shirt, { query: 'x', size: 'Huge' })).toEqual({
      ok: false,
      message: 'size: must be one of Small, Medium, Large',
    });
  });

  it('says which type is expected, and bounds', () => {
    expect(validateArgs(shirt, { query: 'x', count: 'two' })).toEqual({ ok: false, message: 'count: must be a whole number' });
    expect(validateArgs(shirt, { query: 'x', count: 0 })).toEqual({ ok: false, message: 'count: must be at least 1' });
    expect(validateArgs(shirt, { query: 'x', count: 11 })).toEqual({ ok: false, message: 'count: must be at most 10' });
    expect(validateArgs(shirt, { query: '' })).toEqual({ ok: false, message: 'query: must not be empty' });
  });

  it('explains formats with an example', () => {
    expect(validateArgs(shirt, { query: 'x', when: 'next friday' })).toEqual({
      ok: false,
      message: 'when: must be a date like 2025-01-31',
    });
  });

  it('points into arrays and nested objects', () => {
    expect(validateArgs(shirt, { query: 'x', tags: ['a', 3] })).toEqual({ ok: false, message: 'tags[1]: must be a string' });
    const nested = { type: 'object', properties: { address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] } } };
    expect(validateArgs(nested, { address: {} })).toEqual({ ok: false, message: 'address.zip: required' });
  });

  it('names an unknown parameter and the allowed ones', () => {
    expect(validateArgs(shirt, { query: 'x', colour: 'red' })).toEqual({
      ok: false,
      message: 'colour: unknown parameter (allowed: query, size, count, when, tags)',
    });
  });

  it('joins several problems', () => {
    const result = validateArgs(shirt, { size: 'Huge', count: 0 });
    expect(result).toEqual({ ok: false, message: 'query: required; size: must be one of Small, Medium, Large; count: must be at least 1' });
  });

  it('asks for an object when given something else', () => {
    expect(validateArgs(shirt, 'shirt')).toEqual({ ok: false, message: 'input: must be an object of named parameters' });
  });

  it('says no form matched for anyOf, without contradicting branch messages', () => {
    const schema = { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(validateArgs(schema, { id: true })).toEqual({ ok: false, message: 'id: does not match any allowed form' });
  });

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

  it('accepts anything for schemas that constrain nothing or are not objects', () => {
    for (const schema of [undefined, null, 42, 'object', [], {}, true, { description: 'no params' }]) {
      expect(validateArgs(schema, { any: 1 })).toEqual({ ok: true });
    }
  });

  it('rejects everything for the false schema', () => {
    expect(validateArgs(false, {}).ok).toBe(false);
  });

  describe('hostile schemas', () => {
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
      const keyword = fc.constantFrom('type', 'properties', 'required', 'enum', '$ref', 'items', 'anyOf', 'pattern', 'minimum', 'const', 'not', 'if', 'then', 'additionalProperties', '$defs', 'format');
      const schemaArb = fc.letrec((tie) => ({
        node: fc.dictionary(keyword, fc.oneof(fc.jsonValue({ maxDepth: 2 }), tie('node'), fc.array(tie('node'), { maxLength: 3 })), { maxKeys: 5 }),
      })).node;
      fc.assert(
        fc.property(schemaArb, fc.jsonValue({ maxDepth: 3 }), (schema, args) => {
          expect(typeof validateArgs(schema, args).ok).toBe('boolean');
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 500) },
      );
    });
  });
});
