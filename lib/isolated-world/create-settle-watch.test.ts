// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FrameReport } from '../messaging/router-messages';
import type { ToolCursor } from './create-tool-cursor';
import { createSettleWatch } from './create-settle-watch';

const cursor: ToolCursor = { moveTo: () => {}, fade: () => {}, destroy: () => {}, host: undefined };
const report = (names: string[]): FrameReport => ({
  url: location.href,
  origin: location.origin,
  page: { url: location.href, title: '' },
  tools: names.map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
});

/** A watch over this window whose tool list the test sets (the host's list() in real use). */
function setup(names: string[]) {
  let tools = names;
  let listed = 0;
  const watch = createSettleWatch({
    win: window as unknown as Window & typeof globalThis,
    doc: document,
    cursor,
    capMs: 1_500,
    list: async () => {
      listed++;
      return report(tools);
    },
    isUnloading: () => false,
  });
  return {
    watch,
    listed: () => listed,
    setTools(next: string[]) {
      tools = next;
      watch.toolsChanged();
    },
  };
}

afterEach(() => {
  document.body.innerHTML = '';
  history.replaceState(null, '', '/');
});

describe('createSettleWatch', () => {
  it('ends at once after a call that changed nothing', async () => {
    const { watch } = setup(['search']);
    const since = Date.now();
    await watch.waitForSettle(since, { url: location.href, names: new Set(['search']) });
    expect(Date.now() - since).toBeLessThan(1_500);
  });

  it('after a route change that took the tools away, waits for the new route to register its own', async () => {
    const { watch, setTools, listed } = setup(['search']);
    const since = Date.now();
    const before = { url: location.href, names: new Set(['search']) };
    history.pushState(null, '', '/results');
    window.dispatchEvent(new PopStateEvent('popstate'));
    setTools([]);
    let settled = false;
    const waiting = watch.waitForSettle(since, before).then(() => {
      settled = true;
    });
    // The watch has looked and found the old route's tools gone: it keeps waiting for the new route's.
    await vi.waitFor(() => expect(listed()).toBeGreaterThan(0));
    expect(settled).toBe(false);
    setTools(['filter_results']);
    await waiting;
    expect(settled).toBe(true);
  });

  it('page mutations during a call are evidence; its own cursor overlay is not', async () => {
    const { watch } = setup(['search']);
    const stop = watch.observeMutations();
    const since = Date.now();
    document.body.append(document.createElement('webmcp-agent-cursor'));
    await watch.waitForSettle(since, { url: location.href, names: new Set(['search']) });
    stop();
    expect(Date.now() - since).toBeLessThan(1_500);
  });
});
