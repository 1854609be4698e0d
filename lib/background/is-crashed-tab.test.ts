import { describe, expect, it } from 'vitest';
import { isCrashedTab } from './is-crashed-tab';

describe('isCrashedTab', () => {
  it('says yes for a tab the browser reports unloaded and not discarded (Chromium after a renderer crash)', () => {
    expect(isCrashedTab({ status: 'unloaded', discarded: false })).toBe(true);
    expect(isCrashedTab({ status: 'unloaded' })).toBe(true);
  });

  it('says no for a tab that is loading or loaded (a reload, a navigation, the back/forward cache), discarded, or gone', () => {
    expect(isCrashedTab({ status: 'loading', discarded: false })).toBe(false);
    expect(isCrashedTab({ status: 'complete', discarded: false })).toBe(false);
    expect(isCrashedTab({ status: 'unloaded', discarded: true })).toBe(false);
    expect(isCrashedTab(undefined)).toBe(false);
  });
});
