/**
 * Where a window sits in its page's frame tree, as the child indexes from the top (`top[i][j]…`). Cross-origin
 * windows allow exactly this much (counting and indexing frames, comparing windows), so a frame can say where it is
 * and a document of another origin can find that window again in its own realm: the WindowProxy a cross-origin
 * tool's `window` must be (docs/webmcp-conformance.md, "Exposure origins").
 */

/** At most this deep: deeper paths are refused, so a path cannot make a walk long. */
export const MAX_WINDOW_PATH = 32;

/** The path of `win` from its top window, or undefined when it cannot be told (the frame is being removed). */
export function pathOfWindow(win: Window): number[] | undefined {
  const path: number[] = [];
  for (let current = win; current !== current.parent; current = current.parent) {
    const parent = current.parent;
    if (!parent || path.length >= MAX_WINDOW_PATH) return undefined;
    let index = -1;
    for (let i = 0; i < parent.length; i++) {
      if (parent[i] === current) {
        index = i;
        break;
      }
    }
    if (index < 0) return undefined;
    path.unshift(index);
  }
  return path;
}

/** The window at `path` from `top`, or undefined when there is none there (any more). */
export function windowAtPath(top: Window, path: readonly number[]): Window | undefined {
  if (path.length > MAX_WINDOW_PATH) return undefined;
  let current: Window | undefined = top;
  for (const index of path) {
    if (!Number.isInteger(index) || index < 0 || !current) return undefined;
    try {
      current = index < current.length ? (current[index] ?? undefined) : undefined;
    } catch {
      return undefined;
    }
  }
  return current;
}

/** Every window of the frame tree under `top`, breadth first, each window's children in index order. */
export function windowsBreadthFirst(top: Window): Window[] {
  const queue: Window[] = [top];
  for (let i = 0; i < queue.length; i++) {
    let count = 0;
    try {
      count = queue[i].length;
    } catch {
      // A window that went away while it was walked.
    }
    for (let j = 0; j < count; j++) {
      const child = queue[i][j];
      if (child) queue.push(child);
    }
  }
  return queue;
}
