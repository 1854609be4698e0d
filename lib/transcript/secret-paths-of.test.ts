import { describe, expect, it } from 'vitest';
import { SCHEMA_LIMITS } from '../schema/schema-limits';
import { ANY_ITEM, secretPathsOf } from './secret-paths-of';

const LOGIN = {
  type: 'object',
  properties: { username: { type: 'string' }, password: { type: 'string', format: 'password' } },
  required: ['username', 'password'],
};

describe('secretPathsOf', () => {
  it('finds format: password and writeOnly at the top, and nothing in a schema without them', () => {
    expect(secretPathsOf(LOGIN)).toEqual([['password']]);
    expect(secretPathsOf({ type: 'object', properties: { token: { type: 'string', writeOnly: true }, note: { type: 'string' } } })).toEqual(
      [['token']],
    );
    expect(
      secretPathsOf({
        type: 'object',
        properties: { query: { type: 'string', format: 'email' }, n: { type: 'integer', writeOnly: false } },
      }),
    ).toEqual([]);
    expect(secretPathsOf(undefined)).toEqual([]);
    expect(secretPathsOf('password')).toEqual([]);
  });

  it('finds nested secrets: card.cvv, array items, map values, tuples', () => {
    const schema = {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        card: { type: 'object', properties: { number: { type: 'string' }, cvv: { type: 'string', format: 'password' } } },
        cards: { type: 'array', items: { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } } },
        vault: { type: 'object', additionalProperties: { type: 'string', format: 'password' } },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string', format: 'password' }] },
        rest: { type: 'array', unevaluatedItems: { writeOnly: true } },
        extra: { type: 'object', dependencies: { a: ['b'], c: { properties: { otp: { format: 'password' } } } } },
        // A whole object marked secret is masked whole: nothing under it needs its own path.
        token: { type: 'object', writeOnly: true, properties: { inner: { type: 'string', format: 'password' } } },
      },
    };
    expect(secretPathsOf(schema)).toEqual([
      ['card', 'cvv'],
      ['cards', ANY_ITEM, 'pin'],
      ['vault', ANY_ITEM],
      ['pair', ANY_ITEM],
      ['rest', ANY_ITEM],
      ['extra', 'otp'],
      ['token'],
    ]);
  });

  it('follows local $refs and combinators, and survives $ref cycles', () => {
    const schema = {
      $defs: {
        card: { type: 'object', properties: { cvv: { $ref: '#/$defs/secret' }, next: { $ref: '#/$defs/card' } } },
        secret: { type: 'string', format: 'password' },
        plain: { type: 'string' },
        loop: { allOf: [{ $ref: '#/$defs/loop' }] },
      },
      type: 'object',
      properties: {
        card: { $ref: '#/$defs/card' },
        login: { allOf: [{ properties: { user: { type: 'string' } } }, { properties: { pass: { $ref: '#/definitions/pw' } } }] },
        either: { oneOf: [{ $ref: '#/$defs/plain' }, { properties: { key: { type: 'string', writeOnly: true } } }] },
        loop: { $ref: '#/$defs/loop' },
        remote: { $ref: 'https://example.test/schema.json' },
      },
      definitions: { pw: { type: 'string', format: 'password' } },
    };
    const paths = secretPathsOf(schema);
    expect(paths).toContainEqual(['card', 'cvv']);
    expect(paths).toContainEqual(['card', 'next', 'cvv']);
    expect(paths).toContainEqual(['login', 'pass']);
    expect(paths).toContainEqual(['either', 'key']);
    // The card refers to itself: followed down to the depth cap, where the rest is masked whole.
    expect(paths.every((p) => p.length <= SCHEMA_LIMITS.depth)).toBe(true);
    expect(paths.some((p) => p[0] === 'loop' || p[0] === 'remote')).toBe(false);
  });

  it('errs towards masking: too deep masks the subtree, too many secrets the whole input, throwing getters are skipped', () => {
    let deep: Record<string, unknown> = { type: 'string', format: 'password' };
    for (let i = 0; i < 30; i++) deep = { type: 'object', properties: { d: deep } };
    const [cut] = secretPathsOf(deep);
    expect(cut).toHaveLength(SCHEMA_LIMITS.depth);
    expect(cut.every((s) => s === 'd')).toBe(true);

    const many = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { format: 'password' }])),
    };
    expect(secretPathsOf(many)).toEqual([[]]);

    // Each level refers to the next twice: 2^40 paths if followed blindly.
    const defs: Record<string, unknown> = { l40: { type: 'string', format: 'password' } };
    for (let i = 0; i < 40; i++) defs[`l${i}`] = { properties: { a: { $ref: `#/$defs/l${i + 1}` }, b: { $ref: `#/$defs/l${i + 1}` } } };
    expect(secretPathsOf({ $defs: defs, $ref: '#/$defs/l0' })).toEqual([[]]);

    const throwing = {
      type: 'object',
      properties: {
        x: {
          get format() {
            throw new Error('boom');
          },
        },
        y: { format: 'password' },
      },
    };
    expect(secretPathsOf(throwing)).toEqual([['y']]);
  });
});
