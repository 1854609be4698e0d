import { describe, expect, it } from 'vitest';
import { callerLabel, desktopCaller, IN_BROWSER_AGENT, readGrantCaller, sameCaller } from './grant-caller';

describe('grant callers', () => {
  it('knows a desktop agent by the name it gives, and none that gives no name', () => {
    expect(desktopCaller('Claude Code')).toEqual({ kind: 'desktop', name: 'Claude Code' });
    expect(desktopCaller('')).toBeUndefined();
    expect(desktopCaller('  ')).toBeUndefined();
    // The bridge's stand-in for a client that named itself nothing.
    expect(desktopCaller('MCP client')).toBeUndefined();
    expect(desktopCaller('x'.repeat(61))).toBeUndefined();
  });

  it('tells callers apart: the in-browser agent, and each desktop agent by name', () => {
    const claude = { kind: 'desktop', name: 'Claude Code' } as const;
    expect(sameCaller(IN_BROWSER_AGENT, { kind: 'agent' })).toBe(true);
    expect(sameCaller(IN_BROWSER_AGENT, claude)).toBe(false);
    expect(sameCaller(claude, IN_BROWSER_AGENT)).toBe(false);
    expect(sameCaller(claude, { kind: 'desktop', name: 'Claude Code' })).toBe(true);
    expect(sameCaller(claude, { kind: 'desktop', name: 'claude code' })).toBe(false);
    expect(callerLabel(IN_BROWSER_AGENT)).toBe('The in-browser agent');
    expect(callerLabel(claude)).toBe('Desktop agent “Claude Code”');
  });

  it('reads a grant stored without a caller as the in-browser agent’s, and drops one whose caller is not a caller', () => {
    expect(readGrantCaller(undefined)).toEqual(IN_BROWSER_AGENT);
    expect(readGrantCaller({ kind: 'agent' })).toEqual(IN_BROWSER_AGENT);
    expect(readGrantCaller({ kind: 'desktop', name: 'Cursor' })).toEqual({ kind: 'desktop', name: 'Cursor' });
    for (const bad of [null, 'agent', { kind: 'desktop' }, { kind: 'desktop', name: 7 }, { kind: 'desktop', name: '' }, { kind: 'page' }]) {
      expect(readGrantCaller(bad)).toBeUndefined();
    }
  });
});
