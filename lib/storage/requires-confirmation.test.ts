import { describe, expect, it } from 'vitest';
import { requiresConfirmation } from './requires-confirmation';

describe('requiresConfirmation', () => {
  const consequential = { consequentialHint: true };
  const readOnly = { readOnlyHint: true };
  const plain = {};

  it('asks only for consequential tools by default policy', () => {
    expect(requiresConfirmation('consequential', consequential)).toBe(true);
    expect(requiresConfirmation('consequential', plain)).toBe(false);
    expect(requiresConfirmation('consequential', undefined)).toBe(false);
  });

  it('asks for every tool not marked read-only under non-read-only', () => {
    expect(requiresConfirmation('non-read-only', plain)).toBe(true);
    expect(requiresConfirmation('non-read-only', undefined)).toBe(true);
    expect(requiresConfirmation('non-read-only', consequential)).toBe(true);
    expect(requiresConfirmation('non-read-only', readOnly)).toBe(false);
  });

  it('never asks under never, nor for a tool granted on the site', () => {
    expect(requiresConfirmation('never', consequential)).toBe(false);
    expect(requiresConfirmation('consequential', consequential, true)).toBe(false);
    expect(requiresConfirmation('non-read-only', plain, true)).toBe(false);
  });
});
