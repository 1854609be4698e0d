import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('words sizes the way downloads are quoted', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_300)).toBe('12 KB');
    expect(formatBytes(568_000_000)).toBe('568 MB');
    expect(formatBytes(1_400_000_000)).toBe('1.4 GB');
    expect(formatBytes(Number.NaN)).toBe('unknown size');
  });
});
