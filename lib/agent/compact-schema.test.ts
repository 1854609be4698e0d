import { describe, expect, it } from 'vitest';
import { cleanText, compactSchema } from './compact-schema';

describe('compactSchema', () => {
  it('keeps what shapes a call and drops the rest', () => {
    expect(
      compactSchema({
        $id: 'x',
        title: 'T',
        type: 'object',
        properties: { size: { enum: ['S', 'M'], default: 'S', examples: ['M'], $comment: 'c' } },
        required: ['size'],
      }),
    ).toEqual({ type: 'object', properties: { size: { enum: ['S', 'M'], default: 'S' } }, required: ['size'] });
  });

  it('is always an object schema', () => {
    expect(compactSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(compactSchema({ type: 'string' })).toEqual({ type: 'object', properties: {} });
  });

  it('inlines refs without looping on cycles', () => {
    const schema = {
      type: 'object',
      properties: { node: { $ref: '#/$defs/n' } },
      $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } },
    };
    expect(compactSchema(schema)).toEqual({
      type: 'object',
      properties: { node: { type: 'object', properties: { next: {} } } },
    });
  });

  it('cuts long enums and descriptions', () => {
    const out = compactSchema({
      type: 'object',
      properties: { c: { enum: Array.from({ length: 100 }, (_, i) => i), description: 'd'.repeat(500) } },
    }) as { properties: { c: { enum: unknown[]; description: string } } };
    expect(out.properties.c.enum).toHaveLength(24);
    expect(out.properties.c.description.length).toBeLessThanOrEqual(160);
  });

  it('survives cyclic objects and huge schemas', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(compactSchema(cyclic).type).toBe('object');
    const properties = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(Object.keys((compactSchema({ type: 'object', properties }) as { properties: object }).properties).length).toBe(5000);
  });
});

describe('cleanText', () => {
  it('removes control and bidi characters (as a person sees the text), makes one line and cuts', () => {
    expect(cleanText('a\u0000b\u202Ec\n\n d', 100)).toBe('abc d');
    expect(cleanText('abcdef', 4)).toBe('abc…');
  });
});
