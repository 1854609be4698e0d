import { describe, expect, it } from 'vitest';
import { REDACTED } from '../transcript/redact-secrets';
import type { CallRecord } from '../messaging/call-record';
import { redactCallRecord } from './redact-call-record';

const record: CallRecord = {
  id: 'call-7373',
  at: 1,
  by: 'person',
  tool: 'pay',
  input: { amount: 3, card: { cvv: '7373' }, note: 'ok' },
  state: 'done',
  output: 'Charged the card with cvv 7373.',
};

describe('redactCallRecord', () => {
  it('masks what the person marked, at any depth below it, and redacts its value from the output; ids stay', () => {
    const shown = redactCallRecord(record, [['card']]);
    expect(shown.input).toEqual({ amount: 3, card: REDACTED, note: 'ok' });
    expect(shown.output).toBe(`Charged the card with cvv ${REDACTED}.`);
    expect(shown.id).toBe('call-7373');
    expect(JSON.stringify(shown)).not.toContain('"7373"');
  });

  it('leaves a record with nothing marked as it is', () => {
    expect(redactCallRecord(record, [])).toBe(record);
    expect(redactCallRecord(record, [['password']]).input).toEqual(record.input);
  });
});
