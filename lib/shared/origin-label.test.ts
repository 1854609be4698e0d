import { describe, expect, it } from 'vitest';
import { originLabel } from './origin-label';

describe('originLabel', () => {
  it('names a web origin by its host and an opaque one as a sandboxed frame', () => {
    expect(originLabel('https://ads.example')).toBe('ads.example');
    expect(originLabel('http://127.0.0.1:5174')).toBe('127.0.0.1:5174');
    expect(originLabel('null')).toBe('a sandboxed frame');
  });
});
