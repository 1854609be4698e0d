import { describe, expect, it } from 'vitest';
import { validateArgs } from './validate-args';

// The wording is what a model reads back: tested through validateArgs, which hands describeErrors the validator's errors.

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

describe('describeErrors, through validateArgs', () => {
  it('names a missing required parameter', () => {
    expect(validateArgs(shirt, { size: 'Small' })).toEqual({ ok: false, message: 'query: required' });
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
    const nested = {
      type: 'object',
      properties: { address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] } },
    };
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
});
