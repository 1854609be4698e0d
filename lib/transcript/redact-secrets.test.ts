import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, REDACTED, redactSecrets } from './redact-secrets';

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
