import { describe, expect, it } from 'vitest';
import { sameOriginWithTop } from './same-origin-with-top';

/** Test double: just the members sameOriginWithTop reads of a window. */
function fakeWindow(origin: string, top?: object | null): Window {
  const win = { origin } as { origin: string; top?: object | null };
  win.top = top === undefined ? win : top;
  return win as unknown as Window;
}

describe('sameOriginWithTop', () => {
  it('holds for the top, a detached window and a frame of the top’s origin', () => {
    expect(sameOriginWithTop(fakeWindow('https://shop.example'))).toBe(true);
    expect(sameOriginWithTop(fakeWindow('https://shop.example', null))).toBe(true);
    expect(sameOriginWithTop(fakeWindow('https://shop.example', fakeWindow('https://shop.example')))).toBe(true);
  });

  it('fails for a frame of another origin, and for a top whose origin cannot be read', () => {
    expect(sameOriginWithTop(fakeWindow('https://ads.example', fakeWindow('https://shop.example')))).toBe(false);
    const unreadable = Object.defineProperty({}, 'origin', {
      get() {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    });
    expect(sameOriginWithTop(fakeWindow('https://ads.example', unreadable))).toBe(false);
  });
});
