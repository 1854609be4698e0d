import { describe, expect, it } from 'vitest';
import { sameOriginAncestry } from './same-origin-ancestry';

/**
 * Test double: just the members sameOriginAncestry reads of a window. `parent` undefined makes a top; `element` is
 * the `<iframe>` the window sits in (its `allow` attribute), as its parent's document shows it.
 */
function fakeWindow(origin: string | (() => string), parent?: Window | null, allow?: string): Window {
  const win: Record<string, unknown> = {};
  Object.defineProperty(win, 'origin', { get: typeof origin === 'function' ? origin : () => origin });
  win.parent = parent === undefined ? win : parent;
  win.frameElement = allow === undefined ? null : { tagName: 'IFRAME', src: 'https://shop.example/frame', getAttribute: () => allow };
  return win as unknown as Window;
}

const unreadable = () => {
  throw new DOMException('Blocked a frame', 'SecurityError');
};

describe('sameOriginAncestry', () => {
  it('holds for the top, a detached window, and a chain of frames of one origin', () => {
    const top = fakeWindow('https://shop.example');
    expect(sameOriginAncestry(top)).toBe(true);
    expect(sameOriginAncestry(fakeWindow('https://shop.example', null))).toBe(true);
    const child = fakeWindow('https://shop.example', top, '');
    expect(sameOriginAncestry(fakeWindow('https://shop.example', child, 'camera'))).toBe(true);
    // allow="tools" on a same-origin frame: its allowlist ('src') has the frame's own origin.
    expect(sameOriginAncestry(fakeWindow('https://shop.example', top, 'tools'))).toBe(true);
  });

  it('fails for a frame of another origin, and for one whose ancestor cannot be read', () => {
    const top = fakeWindow('https://shop.example');
    expect(sameOriginAncestry(fakeWindow('https://ads.example', top))).toBe(false);
    expect(sameOriginAncestry(fakeWindow('https://ads.example', fakeWindow(unreadable)))).toBe(false);
  });

  it('fails for a frame of the top’s origin below a frame of another origin, however its own element reads', () => {
    const top = fakeWindow('https://shop.example');
    const middle = fakeWindow(unreadable, top);
    expect(sameOriginAncestry(fakeWindow('https://shop.example', middle))).toBe(false);
    expect(sameOriginAncestry(fakeWindow('https://shop.example', middle, 'tools *'))).toBe(false);
  });

  it('fails where a same-origin frame’s element takes tools away', () => {
    const top = fakeWindow('https://shop.example');
    expect(sameOriginAncestry(fakeWindow('https://shop.example', top, "tools 'none'"))).toBe(false);
    expect(sameOriginAncestry(fakeWindow('https://shop.example', top, 'tools https://other.example'))).toBe(false);
    const refused = fakeWindow('https://shop.example', top, "camera; tools 'none'");
    expect(sameOriginAncestry(fakeWindow('https://shop.example', refused, ''))).toBe(false);
  });
});
