import { describe, expect, it } from 'vitest';
import { mayAlwaysAllow, needsConfirmation } from './needs-confirmation';
import { DEFAULT_SETTINGS } from '../storage/settings';

describe('needsConfirmation', () => {
  it('by default asks for every tool not marked read-only, as the reference extension does', () => {
    const policy = DEFAULT_SETTINGS.confirmation;
    expect(needsConfirmation(policy, undefined, false)).toBe(true);
    expect(needsConfirmation(policy, {}, false)).toBe(true);
    expect(needsConfirmation(policy, { untrustedContentHint: true }, false)).toBe(true);
    expect(needsConfirmation(policy, { readOnlyHint: false }, false)).toBe(true);
    expect(needsConfirmation(policy, { readOnlyHint: true }, false)).toBe(false);
  });

  it('a truthy string is not a read-only mark', () => {
    expect(needsConfirmation('non-read-only', { readOnlyHint: 'yes' as unknown as boolean }, false)).toBe(true);
  });

  it('asks before a consequential tool every time: no grant, no policy and no read-only mark skips it', () => {
    for (const policy of ['non-read-only', 'consequential', 'never'] as const) {
      expect(needsConfirmation(policy, { consequentialHint: true }, false)).toBe(true);
      expect(needsConfirmation(policy, { consequentialHint: true }, true)).toBe(true);
      expect(needsConfirmation(policy, { consequentialHint: true, readOnlyHint: true }, true)).toBe(true);
    }
  });

  it('"consequential" asks only for marked tools; "never" for none of the others; a grant skips an unmarked tool', () => {
    expect(needsConfirmation('consequential', {}, false)).toBe(false);
    expect(needsConfirmation('never', undefined, false)).toBe(false);
    expect(needsConfirmation('non-read-only', {}, true)).toBe(false);
  });
});

describe('mayAlwaysAllow', () => {
  it('offers "Always" for anything but a tool marked consequential, even loosely marked', () => {
    expect(mayAlwaysAllow(undefined)).toBe(true);
    expect(mayAlwaysAllow({ readOnlyHint: true })).toBe(true);
    expect(mayAlwaysAllow({ consequentialHint: true })).toBe(false);
    expect(mayAlwaysAllow({ consequentialHint: 'yes' as unknown as boolean })).toBe(false);
  });
});
