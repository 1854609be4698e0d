import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, maskSecretFields, REDACTED, redactSecrets, secretValuesOf } from './redact-secrets';

describe('redactSecrets', () => {
  it('replaces every occurrence at any depth, in keys too, longest secret first', () => {
    const out = redactSecrets(
      { a: 'key=sk-123456 and sk-123456', b: [{ 'sk-123456': 1 }], c: 'sk-1234567' },
      { values: ['sk-123456', 'sk-1234567'] },
    );
    expect(out).toEqual({ a: `key=${REDACTED} and ${REDACTED}`, b: [{ [REDACTED]: 1 }], c: REDACTED });
  });

  it('ignores secrets too short to be told apart from ordinary text, and survives cycles', () => {
    const cyclic: Record<string, unknown> = { text: 'ok 1 ok' };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic, { values: ['ok', '1'.repeat(MIN_SECRET_LENGTH - 1)] })).toEqual({ text: 'ok 1 ok', self: '[circular]' });
  });
});

describe('secret fields', () => {
  it('masks the named fields of an input and gives their values for redaction elsewhere', () => {
    const names = new Set(['pin', 'card']);
    expect(maskSecretFields({ pin: '1234', amount: 3 }, names)).toEqual({ pin: REDACTED, amount: 3 });
    expect(secretValuesOf({ pin: '1234', card: { n: 1 }, amount: 3 }, names)).toEqual(['1234', '{"n":1}']);
    expect(maskSecretFields(['x'], names)).toEqual(['x']);
  });
});
