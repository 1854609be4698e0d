import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('reads as people write sizes', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(12 * 1024)).toBe('12 KB');
    expect(formatBytes(570 * 1024 * 1024)).toBe('570 MB');
    expect(formatBytes(1434 * 1024 * 1024)).toBe('1.4 GB');
    expect(formatBytes(12.5 * 1024 ** 3)).toBe('13 GB');
  });

  it('gives nothing for sizes that are not sizes', () => {
    expect(formatBytes(-1)).toBe('');
    expect(formatBytes(Number.NaN)).toBe('');
  });
});
