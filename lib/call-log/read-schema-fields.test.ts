import { describe, expect, it } from 'vitest';
import { MAX_FIELD_DEPTH, MAX_FIELDS, readSchemaFields } from './read-schema-fields';

describe('readSchemaFields', () => {
  it('lists properties with type, required, enum, description, default and format, nested ones by path', () => {
    const { fields, truncated } = readSchemaFields({
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'string', enum: ['S', 'M', 'L'], description: 'Shirt size', default: 'M' },
        note: { type: ['string', 'null'] },
        card: { type: 'string', format: 'password' },
        address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    });
    expect(truncated).toBe(false);
    expect(fields.map((f) => [f.path, f.type, f.required])).toEqual([
      ['size', 'string', true],
      ['note', 'string | null', false],
      ['card', 'string', false],
      ['address', 'object', false],
      ['address.city', 'string', true],
      ['items', 'array', false],
      ['items[]', 'object', false],
      ['items[].sku', 'string', false],
    ]);
    expect(fields[0]).toMatchObject({ enum: ['S', 'M', 'L'], description: 'Shirt size', default: 'M', secret: false });
    expect(fields[2]).toMatchObject({ format: 'password', secret: true });
  });

  it('survives hostile schemas: cycles, throwing getters, huge and deep ones', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(readSchemaFields(cyclic).fields.map((f) => f.path)).toEqual(['self']);

    const throwing = {
      type: 'object',
      properties: {
        x: {
          get description() {
            throw new Error('boom');
          },
          type: 'string',
        },
      },
    };
    expect(readSchemaFields(throwing).fields[0]).toMatchObject({ path: 'x', type: 'string' });

    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const many = readSchemaFields(wide);
    expect(many.fields).toHaveLength(MAX_FIELDS);
    expect(many.truncated).toBe(true);

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 50; i++) deep = { type: 'object', properties: { d: deep } };
    const deepFields = readSchemaFields(deep);
    expect(Math.max(...deepFields.fields.map((f) => f.depth))).toBe(MAX_FIELD_DEPTH);
    expect(deepFields.truncated).toBe(true);

    expect(readSchemaFields('not a schema')).toEqual({ fields: [], truncated: false });
  });

  it('cuts long descriptions', () => {
    const { fields } = readSchemaFields({ properties: { q: { type: 'string', description: 'x'.repeat(5000) } } });
    expect(fields[0].description?.length).toBe(500);
  });
});
