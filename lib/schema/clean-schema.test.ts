import { describe, expect, it } from 'vitest';
import { cleanDescription, cleanSchema } from './clean-schema';

describe('cleanSchema', () => {
  it('drops $schema and $id, keeps names that look like them, and always gives an object schema', () => {
    const cleaned = cleanSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      type: 'object',
      properties: { $id: { type: 'string' } },
    });
    expect(cleaned).toEqual({ type: 'object', properties: { $id: { type: 'string' } } });
    expect(cleanSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(cleanSchema({ type: 'string' })).toEqual({ type: 'object', properties: {} });
    expect(cleanSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('removes hidden characters from strings and keys, and cuts cycles', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: { 'na\u200bme': { type: 'string', description: 'a\u202eb' } } };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const cleaned = cleanSchema(cyclic) as { properties: Record<string, unknown> };
    expect(Object.keys(cleaned.properties)).toEqual(['name', 'self']);
    expect(cleaned.properties.self).toEqual({});
    expect(cleanDescription(' Find\u200b items \n')).toBe('Find items');
  });
});
