import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_PATH, pathOfWindow, windowAtPath, windowsBreadthFirst } from './window-path';

/** A frame tree of fake windows, as cross-origin windows show it: length, indexes, parent, nothing more. */
type FakeWindow = Window & { children: FakeWindow[] };
function tree(shape: unknown[], parent?: FakeWindow): FakeWindow {
  const win = { children: [] as FakeWindow[] } as unknown as FakeWindow & Record<number, FakeWindow>;
  Object.assign(win, { parent: parent ?? win });
  win.children = shape.map((child) => tree(child as unknown[], win));
  Object.defineProperty(win, 'length', { get: () => win.children.length });
  for (let i = 0; i < win.children.length; i++) Object.defineProperty(win, i, { get: () => win.children[i] });
  return win;
}

describe('window paths', () => {
  it('says where a frame sits from the top, and finds that window again', () => {
    const top = tree([[], [[], [[]]]]);
    const deep = top.children[1].children[1].children[0];
    expect(pathOfWindow(top)).toEqual([]);
    expect(pathOfWindow(deep)).toEqual([1, 1, 0]);
    expect(windowAtPath(top, [1, 1, 0])).toBe(deep);
    expect(windowAtPath(top, [])).toBe(top);
  });

  it('finds nothing where there is no frame, or for a path that is not one', () => {
    const top = tree([[], []]);
    expect(windowAtPath(top, [2])).toBeUndefined();
    expect(windowAtPath(top, [0, 0])).toBeUndefined();
    expect(windowAtPath(top, [-1])).toBeUndefined();
    expect(windowAtPath(top, [0.5])).toBeUndefined();
    expect(windowAtPath(top, new Array(MAX_WINDOW_PATH + 1).fill(0))).toBeUndefined();
  });

  it('cannot tell the path of a frame its parent no longer holds', () => {
    const top = tree([[]]);
    const gone = top.children[0];
    top.children = [];
    expect(pathOfWindow(gone)).toBeUndefined();
  });

  it('lists the tree breadth first, each window’s children in index order', () => {
    const top = tree([[[]], []]);
    const [a, b] = top.children;
    expect(windowsBreadthFirst(top)).toEqual([top, a, b, a.children[0]]);
  });
});
