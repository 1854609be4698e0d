import { readOwn } from '../shared/read-own';

/**
 * The JSON Schema keywords that hold subschemas, by the shape of their value: the one table every walker reads
 * (drafts 4 to 2020-12). A keyword missing here is a part of a page's schema that some walker would not see.
 */

/** Keywords whose value is one subschema. */
export const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'contains',
]);

/** Keywords whose value is a list of subschemas. */
export const SUBSCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);

/** Keywords whose value maps names (not keywords) to subschemas that describe parts of the value. */
export const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas']);

/** Keywords whose value maps names to subschemas kept only as `$ref` targets. */
export const DEFINITION_KEYWORDS: ReadonlySet<string> = new Set(['$defs', 'definitions']);

/**
 * Keywords whose value maps names to subschemas or to something else: their keys are names, never keywords.
 * (`dependencies` maps a name to a subschema or, in its older form, to a list of property names.)
 */
export const NAME_MAP_KEYWORDS: ReadonlySet<string> = new Set([...SUBSCHEMA_MAP_KEYWORDS, ...DEFINITION_KEYWORDS, 'dependencies']);

/**
 * `items`: one subschema, or (drafts before 2020-12) a list of them, one per position; `dependencies`: per name a
 * subschema or a list of names. Walkers handle these two by the value's shape.
 */
export const SHAPE_DEPENDENT_KEYWORDS: ReadonlySet<string> = new Set(['items', 'dependencies']);

/**
 * What part of the value each subschema keyword's subschemas describe: `same` the value itself (combinators,
 * conditionals), `named` a property by its name, `any` every item or every other property, `none` no part of the
 * value (`not` says what it must not be, `propertyNames` its keys, definitions only what `$ref`s point at). A walker
 * that follows values (the export's secret mask) reads this; every keyword of the tables above has a role here.
 */
type SubschemaRole = 'same' | 'named' | 'any' | 'none';

export const SUBSCHEMA_ROLES: ReadonlyMap<string, SubschemaRole> = new Map<string, SubschemaRole>([
  ['allOf', 'same'],
  ['anyOf', 'same'],
  ['oneOf', 'same'],
  ['if', 'same'],
  ['then', 'same'],
  ['else', 'same'],
  ['dependentSchemas', 'same'],
  ['dependencies', 'same'],
  ['properties', 'named'],
  ['items', 'any'],
  ['prefixItems', 'any'],
  ['additionalItems', 'any'],
  ['unevaluatedItems', 'any'],
  ['contains', 'any'],
  ['additionalProperties', 'any'],
  ['unevaluatedProperties', 'any'],
  ['patternProperties', 'any'],
  ['not', 'none'],
  ['propertyNames', 'none'],
  ['$defs', 'none'],
  ['definitions', 'none'],
]);

/** The subschemas a keyword's value holds, whatever its shape (one, a list, a map of names): names are dropped. */
export function subschemasIn(keyword: string, value: unknown): unknown[] {
  if (Array.isArray(value)) return keyword === 'dependencies' ? [] : [...value];
  if (value === null || typeof value !== 'object') return typeof value === 'boolean' ? [value] : [];
  if (NAME_MAP_KEYWORDS.has(keyword)) {
    return Object.keys(value).flatMap((name) => {
      const child = readOwn(value, name);
      // `dependencies`' list form names properties, not schemas.
      return Array.isArray(child) ? [] : [child];
    });
  }
  return [value];
}
