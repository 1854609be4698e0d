import { describe, expect, it } from 'vitest';
import { isLegacyApi } from './tab-tool-snapshot';

describe('isLegacyApi', () => {
  it('accepts only the APIs it knows', () => {
    expect(['navigator.modelContext', 'provideContext'].every(isLegacyApi)).toBe(true);
    expect([undefined, '', 'registerTool', 'toString', {}].some(isLegacyApi)).toBe(false);
  });
});
