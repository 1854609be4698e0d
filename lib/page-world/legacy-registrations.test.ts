import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { STUB_KEY } from './install-model-context-stub';
import { legacyRegistrations } from './legacy-registrations';

const opened: HappyWindow[] = [];
function page(): Window {
  const happy = new HappyWindow({ url: 'https://print.test/' });
  opened.push(happy);
  return happy as unknown as Window;
}
afterEach(async () => {
  for (const happy of opened.splice(0)) await happy.happyDOM.close();
});

describe('legacyRegistrations', () => {
  it('counts a call as made through navigator.modelContext when the page read it more recently than document.modelContext', () => {
    const legacy = legacyRegistrations(page());
    expect(legacy.apiOf()).toBeUndefined();
    expect(legacy.apiOf('provideContext')).toBe('provideContext');
    legacy.aliasRead();
    expect(legacy.apiOf()).toBe('navigator.modelContext');
    expect(legacy.apiOf('provideContext')).toBe('navigator.modelContext');
    legacy.documentRead();
    expect(legacy.apiOf()).toBeUndefined();
  });

  it('keeps the flag on the stub’s handle where the stub ran, which every later script reads', () => {
    const win = page();
    const stub = { a: true };
    Object.defineProperty(win, STUB_KEY, { value: stub });
    expect(legacyRegistrations(win).apiOf()).toBe('navigator.modelContext');
    legacyRegistrations(win).documentRead();
    expect(stub.a).toBe(false);
  });

  it('puts the flag back after the extension’s own look at the alias', () => {
    const legacy = legacyRegistrations(page());
    const read = legacy.unnoticed(() => {
      legacy.aliasRead();
      return 'read';
    });
    expect(read).toBe('read');
    expect(legacy.apiOf()).toBeUndefined();
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

  it('works, unshared, on a window whose page took its key first, and hands out only the APIs it knows', () => {
    const win = page();
    Object.defineProperty(win, Symbol.for('webmcp-agent.legacy-registrations'), { value: { names: 'junk' } });
    const legacy = legacyRegistrations(win);
    legacy.registered('a', 'provideContext');
    expect(legacy.of('a')).toBe('provideContext');
    expect(legacyRegistrations(win).of('a')).toBeUndefined();
    legacy.registered('b', '<img>' as never);
    expect(legacy.of('b')).toBeUndefined();
  });
});
