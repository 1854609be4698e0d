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

  it('treats missing arguments as an empty object', () => {
    expect(validateArgs(shirt, undefined)).toEqual({ ok: false, message: 'query: required' });
  });

  it('accepts anything for schemas that constrain nothing or are not objects', () => {
    for (const schema of [undefined, null, 42, 'object', [], {}, true, { description: 'no params' }]) {
      expect(validateArgs(schema, { any: 1 })).toEqual({ ok: true });
    }
  });

  it('rejects everything for the false schema', () => {
    expect(validateArgs(false, {}).ok).toBe(false);
  });
});
