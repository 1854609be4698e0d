import { describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { describeThrown, thrownMessage } from './describe-thrown';

describe('describeThrown', () => {
  it.each(HOSTILE_THROWN)('never throws for %s', (_label, make) => {
    const value = make();
    const described = describeThrown(value);
    expect(typeof described.name).toBe('string');
    expect(typeof described.message).toBe('string');
  });

  it('keeps a normal error’s name and message', () => {
    expect(describeThrown(new TypeError('bad input'))).toEqual({ name: 'TypeError', message: 'bad input' });
    expect(describeThrown(new DOMException('gone', 'NotFoundError'))).toEqual({ name: 'NotFoundError', message: 'gone' });
  });

  it('describes primitives and message-less objects as text', () => {
    expect(thrownMessage('plain text')).toBe('plain text');
    expect(thrownMessage(42)).toBe('42');
    expect(thrownMessage(Object.create(null))).toBe('[object Object]');
    expect(thrownMessage(Symbol('s'))).toBe('Symbol(s)');
  });

  it('cuts a long message', () => {
    expect(thrownMessage(new Error('x'.repeat(5_000)))).toHaveLength(2_000);
    expect(describeThrown({ name: 'n'.repeat(500), message: 'm' }).name).toHaveLength(100);
  });
});
