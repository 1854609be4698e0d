// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolCursor } from './create-tool-cursor';
import { followMutations, pointAtForm } from './point-cursor';

/** A cursor that records where it was sent (the real one draws; what it is sent to is what matters here). */
function recordingCursor(): ToolCursor & { moves: string[] } {
  const moves: string[] = [];
  return {
    moves,
    moveTo: (element, label) => moves.push(`${element.getAttribute('name') ?? element.tagName.toLowerCase()}:${label}`),
    fade: () => {},
    destroy: () => {},
    host: undefined,
  };
}

const win = () => window as unknown as Window & typeof globalThis;

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('pointAtForm', () => {
  it('walks the filled fields, then the submit control, and parks there when the person must press it', async () => {
    vi.useFakeTimers();
    document.body.innerHTML =
      '<form><input name="q"><input name="size"><input name="untouched"><button type="submit" name="go">Search</button></form>';
    const cursor = recordingCursor();
    const stop = pointAtForm(win(), cursor, document.forms[0], { q: 'tea', size: 'M' }, 'search', true);
    await vi.runAllTimersAsync();
    expect(cursor.moves).toEqual(['q:search', 'size:search', 'go:search']);
    stop();
    expect(cursor.moves.at(-1)).toBe('go:search');
  });
});

describe('followMutations', () => {
  it('goes to what the tool changed, not to its own overlay, and stays on the last change', async () => {
    document.body.innerHTML = '<p name="count">0</p>';
    const cursor = recordingCursor();
    const stop = followMutations(win(), document, cursor, 'counter');
    document.querySelector('p')!.textContent = '1';
    document.body.append(document.createElement('webmcp-agent-cursor'));
    await vi.waitFor(() => expect(cursor.moves).toEqual(['count:counter']));
    stop();
    expect(cursor.moves.at(-1)).toBe('count:counter');
  });
});
