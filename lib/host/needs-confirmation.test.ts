import { describe, expect, it } from 'vitest';
import { needsConfirmation } from './needs-confirmation';

describe('needsConfirmation', () => {
  it('asks for consequential tools by default, and only for those', () => {
    expect(needsConfirmation('consequential', { consequentialHint: true }, false)).toBe(true);
    expect(needsConfirmation('consequential', {}, false)).toBe(false);
    expect(needsConfirmation('consequential', undefined, false)).toBe(false);
  });

  it('asks for everything not marked read-only under non-read-only; a truthy string is not a mark', () => {
    expect(needsConfirmation('non-read-only', { readOnlyHint: true }, false)).toBe(false);
    expect(needsConfirmation('non-read-only', undefined, false)).toBe(true);
    expect(needsConfirmation('non-read-only', { readOnlyHint: 'yes' as unknown as boolean }, false)).toBe(true);
  });

  it('never asks under never, nor for a tool granted on the site', () => {
    expect(needsConfirmation('never', { consequentialHint: true }, false)).toBe(false);
    expect(needsConfirmation('consequential', { consequentialHint: true }, true)).toBe(false);
  });
});
