import { describe, expect, it } from 'vitest';
import { formatSeconds } from './format-seconds';

describe('formatSeconds', () => {
  it('says tenths of a second under ten seconds', () => {
    expect(formatSeconds(800)).toBe('0.8 s');
    expect(formatSeconds(1250)).toBe('1.3 s');
    expect(formatSeconds(3000)).toBe('3 s');
    expect(formatSeconds(9940)).toBe('9.9 s');
    expect(formatSeconds(0)).toBe('0 s');
  });

  it('says whole seconds from ten seconds on', () => {
    expect(formatSeconds(10_000)).toBe('10 s');
    expect(formatSeconds(12_400)).toBe('12 s');
    expect(formatSeconds(12_600)).toBe('13 s');
    expect(formatSeconds(125_000)).toBe('125 s');
  });
});
