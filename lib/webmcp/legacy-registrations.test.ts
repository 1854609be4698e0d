import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { isLegacyApi, legacyRegistrations } from './legacy-registrations';

const opened: HappyWindow[] = [];
function page(): Window {
  const happy = new HappyWindow({ url: 'https://print.test/' });
  opened.push(happy);
  return happy as unknown as Window;
}
afterEach(async () => {
  for (const happy of opened.splice(0)) await happy.happyDOM.close();
});
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('legacyRegistrations', () => {
  it('counts a call as made through navigator.modelContext in the task the page read it, and not after', async () => {
    const win = page();
    const legacy = legacyRegistrations(win);
    const before = { name: 'a' };
    expect(legacy.apiOf(before)).toBeUndefined();
    legacy.aliasRead();
    expect(legacy.apiOf({ name: 'b' })).toBe('navigator.modelContext');
    expect(legacy.apiOf({ tools: [] }, 'provideContext')).toBe('navigator.modelContext');
    await Promise.resolve();
    expect(legacy.apiOf({ name: 'c' })).toBeUndefined();
    expect(legacy.apiOf({ tools: [] }, 'provideContext')).toBe('provideContext');
  });

  it('remembers a call the stub recorded through the alias, for its replay in a later task', async () => {
    const win = page();
    const throughAlias = { name: 'quote' };
    const throughDocument = { name: 'track' };
    legacyRegistrations(win).recorded(throughDocument);
    legacyRegistrations(win).aliasRead();
    legacyRegistrations(win).recorded(throughAlias);
    await nextTask();
    // Another script (the polyfill, loaded later) reads the same record from the window.
    const later = legacyRegistrations(win);
    expect(later.apiOf(throughAlias)).toBe('navigator.modelContext');
    expect(later.apiOf(throughDocument)).toBeUndefined();
  });

  it('does not count the extension’s own look at the alias as the page’s', () => {
    const legacy = legacyRegistrations(page());
    expect(legacy.unnoticed(() => (legacy.aliasRead(), 'read'))).toBe('read');
    expect(legacy.apiOf({ name: 'a' })).toBeUndefined();
  });

  it('keeps the API each registered tool came through, until the name is registered again through today’s API', () => {
    const win = page();
    legacyRegistrations(win).registered('get_quote', 'navigator.modelContext');
    legacyRegistrations(win).registered('hello', 'provideContext');
    const legacy = legacyRegistrations(win);
    expect([legacy.of('get_quote'), legacy.of('hello'), legacy.of('other')]).toEqual([
      'navigator.modelContext',
      'provideContext',
      undefined,
    ]);
    legacy.registered('get_quote', undefined);
    expect(legacy.of('get_quote')).toBeUndefined();
  });

  it('works, unshared, on a window whose page took its key first', () => {
    const win = page();
    Object.defineProperty(win, Symbol.for('webmcp-agent.legacy-registrations'), { value: { names: 'junk' } });
    const legacy = legacyRegistrations(win);
    legacy.registered('a', 'provideContext');
    expect(legacy.of('a')).toBe('provideContext');
    expect(legacyRegistrations(win).of('a')).toBeUndefined();
  });
});

describe('isLegacyApi', () => {
  it('accepts only the APIs it knows', () => {
    expect(['navigator.modelContext', 'provideContext'].every(isLegacyApi)).toBe(true);
    expect([undefined, '', 'registerTool', 'toString', {}].some(isLegacyApi)).toBe(false);
  });
});
