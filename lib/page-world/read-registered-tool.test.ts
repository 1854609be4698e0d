import { describe, expect, it } from 'vitest';
import { readRegisteredTool } from './read-registered-tool';

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return 'accepted';
};

/** Test double: a window is what has itself as its `window`. */
const win = (() => {
  const w: Record<string, unknown> = {};
  w.window = w;
  return w as unknown as Window;
})();

describe('readRegisteredTool', () => {
  it('reads the name, origin and window of a listed tool', () => {
    expect(readRegisteredTool({ name: 7, origin: 'https://shop.example', description: 'd', window: win })).toEqual({
      name: '7',
      origin: 'https://shop.example',
      win,
    });
  });

  it('takes a removed frame’s window, which shows only `closed` and no prototype', () => {
    const removed = Object.create(null);
    removed.closed = true;
    removed.postMessage = () => {};
    expect(readRegisteredTool({ name: 'n', origin: 'o', description: 'd', window: removed }).win).toBe(removed);
  });

  it("throws native's TypeError for a missing member or a window that is none", () => {
    expect(thrown(() => readRegisteredTool('search'))).toBe(
      "TypeError: Failed to execute 'executeTool' on 'ModelContext': The provided value is not of type 'RegisteredTool'.",
    );
    expect(thrown(() => readRegisteredTool({ name: 'n', window: win }))).toContain(
      "Failed to read the 'description' property from 'RegisteredTool': Required member is undefined.",
    );
    expect(thrown(() => readRegisteredTool({ name: 'n', origin: 'o', description: 'd', window: {} }))).toContain(
      "Failed to read the 'window' property from 'RegisteredTool': Failed to convert value to 'Window'.",
    );
  });
});
