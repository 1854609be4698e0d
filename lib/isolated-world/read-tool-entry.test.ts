import { describe, expect, it } from 'vitest';
import { checkInputSchema, readToolEntry } from './read-tool-entry';

describe('readToolEntry', () => {
  it('copies the fields it knows into plain data', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const tool = readToolEntry({
      name: 'search.run',
      title: 'Search',
      description: 'Finds things',
      inputSchema: schema,
      annotations: { readOnlyHint: true, debugging: false, consequentialHint: 'yes' },
      execute: () => 1,
      window: {},
    });
    expect(tool).toEqual({
      name: 'search.run',
      title: 'Search',
      description: 'Finds things',
      inputSchema: schema,
      annotations: { readOnlyHint: true, debugging: false },
    });
    expect(tool!.inputSchema).not.toBe(schema);
  });

  it('keeps debugging: true, which keeps the tool from every agent (is-debugging-tool.ts)', () => {
    expect(readToolEntry({ name: 'dump_state', description: 'd', annotations: { debugging: true } })!.annotations).toEqual({
      debugging: true,
    });
  });

  it('accepts a schema given as JSON text and a tool without one', () => {
    expect(readToolEntry({ name: 'a', description: 'd', inputSchema: '{"type":"object","properties":{}}' })!.inputSchema).toEqual({
      type: 'object',
      properties: {},
    });
    expect(readToolEntry({ name: 'b', description: 'd' })).toEqual({
      name: 'b',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
    });
  });

  it('flags a malformed schema instead of failing', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(readToolEntry({ name: 'c', description: 'd', inputSchema: cyclic })!.schemaError).toMatch(/^inputSchema is not JSON: /);
    expect(readToolEntry({ name: 'c', description: 'd', inputSchema: { type: 'object', properties: 'oops' } })).toEqual({
      name: 'c',
      description: 'd',
      inputSchema: { type: 'object', properties: {} },
      schemaError: 'inputSchema.properties must be an object mapping names to schemas',
    });
    expect(readToolEntry({ name: 'c', description: 'd', inputSchema: '{oops' })!.schemaError).toMatch(/^inputSchema is not JSON/);
  });

  it('survives hostile getters and rejects things that are not tools', () => {
    const hostile = Object.defineProperty({ name: 'h' }, 'description', {
      get() {
        throw new Error('gotcha');
      },
    });
    expect(readToolEntry(hostile)).toEqual({ name: 'h', description: '', inputSchema: { type: 'object', properties: {} } });
    expect(readToolEntry(null)).toBeUndefined();
    expect(readToolEntry({ name: 42 })).toBeUndefined();
    expect(readToolEntry({ name: '' })).toBeUndefined();
  });

  it('keeps an outputSchema as a JSON copy for the inspector, and drops one that is not an object', () => {
    const getter = {
      get type() {
        return 'object';
      },
    };
    expect(readToolEntry({ name: 't', outputSchema: getter })?.outputSchema).toEqual({ type: 'object' });
    expect(readToolEntry({ name: 't', outputSchema: '{"type":"string"}' })?.outputSchema).toEqual({ type: 'string' });
    expect(readToolEntry({ name: 't', outputSchema: [1] })?.outputSchema).toBeUndefined();
    expect(readToolEntry({ name: 't', outputSchema: 'x'.repeat(60_000) })?.outputSchema).toBeUndefined();
  });

  it('bounds long strings', () => {
    expect(readToolEntry({ name: 'n'.repeat(500), description: 'd'.repeat(10_000) })).toMatchObject({
      name: 'n'.repeat(128),
      description: 'd'.repeat(4_000),
    });
  });
});

describe('checkInputSchema', () => {
  it('accepts ordinary schemas and reports the first structural problem', () => {
    expect(
      checkInputSchema({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, true] }, b: { type: ['string', 'null'] } } }),
    ).toBeUndefined();
    expect(checkInputSchema({ type: 'string' })).toBe('inputSchema.type must be "object", not "string"');
    expect(checkInputSchema([])).toBe('inputSchema must be a JSON object');
    expect(checkInputSchema({ properties: { a: { items: 3 } } })).toBe('inputSchema.properties.a.items must be a schema object');
    expect(checkInputSchema({ required: 'a' })).toBe('inputSchema.required must be a list of property names');
  });
});
