import { describe, expect, it } from 'vitest';
import { FakeChromeTool } from '../../tests/fixtures/fake-chrome-tool';
import { toolOwnerWindow } from './tool-owner-window';

describe('toolOwnerWindow', () => {
  const win = {};

  it("reads Chromium 156's `window` and Chrome 160's `source`", () => {
    expect(toolOwnerWindow({ name: 'a', window: win })).toBe(win);
    expect(toolOwnerWindow(new FakeChromeTool({ name: 'a', description: 'd', source: win }))).toBe(win);
  });

  it('names no window for an entry without one, a null one, or a hostile getter', () => {
    expect(toolOwnerWindow({ name: 'a' })).toBeUndefined();
    expect(toolOwnerWindow(new FakeChromeTool({ name: 'a', description: 'd' }))).toBeUndefined();
    const hostile = Object.defineProperty({}, 'window', {
      get() {
        throw new Error('gotcha');
      },
    });
    expect(toolOwnerWindow(hostile)).toBeUndefined();
    expect(toolOwnerWindow(null)).toBeUndefined();
  });
});
