/**
 * Test double: the members of a window that the polyfill's frame-tree walks read (`length`, indexed frames, each
 * frame's `parent`, `origin`). An origin of `'cross'` throws on read, as a cross-origin window's does.
 */
export function fakeFrameWindow(origin: string, frames: Window[] = []): Window {
  const win: Record<string | number, unknown> = { length: frames.length };
  Object.defineProperty(win, 'origin', {
    get: () => {
      if (origin === 'cross') throw new DOMException('Blocked a frame', 'SecurityError');
      return origin;
    },
  });
  frames.forEach((frame, i) => {
    win[i] = frame;
    (frame as unknown as Record<string, unknown>).parent = win;
  });
  return win as unknown as Window;
}
