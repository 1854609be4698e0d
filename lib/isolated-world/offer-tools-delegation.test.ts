import { describe, expect, it } from 'vitest';
import { listenForToolsDelegation } from './listen-for-tools-delegation';
import { DELEGATION_MESSAGE_KEY, offerToolsDelegation } from './offer-tools-delegation';

describe('offerToolsDelegation and listenForToolsDelegation', () => {
  it('offers each child frame a token with its allow attribute and src, and posts the token into that frame', () => {
    // A DOM cannot load frames in Node: elements shaped like the iframes a parent's content script sees.
    const posted: { frame: string; data: unknown }[] = [];
    const frame = (id: string, tagName: string, allow: string | null, src: string, loaded = true) => ({
      tagName,
      src,
      getAttribute: (name: string) => (name === 'allow' ? allow : null),
      contentWindow: loaded ? { postMessage: (data: unknown) => posted.push({ frame: id, data }) } : null,
    });
    const elements = [
      frame('a', 'IFRAME', 'tools', 'https://widget.test/w'),
      frame('b', 'IFRAME', null, 'https://ads.test/'),
      frame('gone', 'IFRAME', 'tools', 'https://x.test/', false),
      frame('old', 'FRAME', 'tools', 'https://old.test/'),
    ];
    const document = { querySelectorAll: () => elements } as unknown as Document;
    let n = 0;
    const offers = offerToolsDelegation(document, () => `token-${++n}`);
    expect(offers).toEqual([
      { token: 'token-1', allow: 'tools', src: 'https://widget.test/w' },
      { token: 'token-2', allow: '', src: 'https://ads.test/' },
      // A <frame> has no allow attribute: the default policy applies.
      { token: 'token-3', allow: '', src: 'https://old.test/' },
    ]);
    expect(posted).toEqual([
      { frame: 'a', data: { [DELEGATION_MESSAGE_KEY]: 'token-1' } },
      { frame: 'b', data: { [DELEGATION_MESSAGE_KEY]: 'token-2' } },
      { frame: 'old', data: { [DELEGATION_MESSAGE_KEY]: 'token-3' } },
    ]);
  });

  it('a child forwards only tokens its parent posted', () => {
    const parent = {} as Window;
    const listeners: ((e: MessageEvent) => void)[] = [];
    const win = {
      parent,
      addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.push(l),
      removeEventListener: () => {},
    } as unknown as Window;
    const forwarded: string[] = [];
    listenForToolsDelegation(win, (token) => forwarded.push(token));
    const stopped: unknown[] = [];
    const deliver = (source: unknown, data: unknown) => {
      for (const l of listeners) l({ source, data, stopImmediatePropagation: () => stopped.push(data) } as unknown as MessageEvent);
    };
    const token = { [DELEGATION_MESSAGE_KEY]: 'from-parent' };
    deliver(parent, token);
    deliver({}, { [DELEGATION_MESSAGE_KEY]: 'from-a-sibling' });
    deliver(parent, { [DELEGATION_MESSAGE_KEY]: 42 });
    deliver(parent, 'plain');
    expect(forwarded).toEqual(['from-parent']);
    // The page's own listeners never hear the token; every other message goes on to them.
    expect(stopped).toEqual([token]);
  });

  it("a child's listener stands down, without stopping the token, once its document is no longer the window's", () => {
    const parent = {} as Window;
    const listeners = new Set<(e: MessageEvent) => void>();
    const win = {
      parent,
      addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.add(l),
      removeEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.delete(l),
    } as unknown as Window;
    let live = true;
    const forwarded: string[] = [];
    listenForToolsDelegation(
      win,
      (token) => forwarded.push(`old:${token}`),
      () => live,
    );
    live = false;
    listenForToolsDelegation(win, (token) => forwarded.push(`new:${token}`));
    const stopped: unknown[] = [];
    const event = { source: parent, data: { [DELEGATION_MESSAGE_KEY]: 't' }, stopImmediatePropagation: () => stopped.push(1) };
    for (const l of [...listeners]) {
      if (stopped.length > 0) break;
      l(event as unknown as MessageEvent);
    }
    expect(forwarded).toEqual(['new:t']);
    expect(listeners.size).toBe(1);
  });

  it('a top frame listens to nothing', () => {
    const win = {
      addEventListener: () => {
        throw new Error('should not listen');
      },
    } as unknown as Window;
    (win as { parent: Window }).parent = win;
    expect(() => listenForToolsDelegation(win, () => {})).not.toThrow();
  });
});
