import { describe, expect, it } from 'vitest';
import {
  DEFINITION_KEYWORDS,
  SHAPE_DEPENDENT_KEYWORDS,
  SUBSCHEMA_KEYWORDS,
  SUBSCHEMA_LIST_KEYWORDS,
  SUBSCHEMA_MAP_KEYWORDS,
  SUBSCHEMA_ROLES,
  subschemasIn,
} from './subschema-keywords';

describe('the subschema keyword table', () => {
  it('gives every keyword that holds subschemas a role, and has no role for anything else', () => {
    const byShape = [
      ...SUBSCHEMA_KEYWORDS,
      ...SUBSCHEMA_LIST_KEYWORDS,
      ...SUBSCHEMA_MAP_KEYWORDS,
      ...DEFINITION_KEYWORDS,
      ...SHAPE_DEPENDENT_KEYWORDS,
    ].sort();
    expect([...SUBSCHEMA_ROLES.keys()].sort()).toEqual(byShape);
    expect(new Set(byShape).size).toBe(byShape.length);
  });

  it('has every draft 2020-12 applicator, unevaluatedItems and the older forms among them', () => {
    for (const keyword of [
      'unevaluatedItems',
      'unevaluatedProperties',
      'prefixItems',
      'dependentSchemas',
      'additionalItems',
      'dependencies',
      'definitions',
    ]) {
      expect(SUBSCHEMA_ROLES.has(keyword)).toBe(true);
    }
  });
});

describe('subschemasIn', () => {
  it('reads one, a list, or a map of names, and skips what is not a schema', () => {
    expect(subschemasIn('not', { type: 'string' })).toEqual([{ type: 'string' }]);
    expect(subschemasIn('items', false)).toEqual([false]);
    expect(subschemasIn('anyOf', [{ type: 'string' }, true])).toEqual([{ type: 'string' }, true]);
    expect(subschemasIn('properties', { a: { type: 'string' }, b: true })).toEqual([{ type: 'string' }, true]);
    expect(subschemasIn('dependencies', { a: ['b'], c: { required: ['d'] } })).toEqual([{ required: ['d'] }]);
    expect(subschemasIn('items', 'nope')).toEqual([]);
  });

  it('reads a `__proto__` name as a name and never an inherited or throwing property', () => {
    const map = JSON.parse('{"__proto__":{"type":"string"}}');
    expect(subschemasIn('properties', map)).toEqual([{ type: 'string' }]);
    const hostile = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('page getter');
      },
    });
    expect(subschemasIn('properties', hostile)).toEqual([undefined]);
  });
});
