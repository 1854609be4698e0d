// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { FakeChromeTool } from '../../tests/fixtures/fake-chrome-tool';
import type { FrameCallUpdate } from '../messaging/router-messages';
import { createSettleWatch } from './create-settle-watch';
import { createToolCursor } from './create-tool-cursor';
import { listFrameTools } from './list-frame-tools';
import { runFrameCall } from './run-frame-call';

/**
 * One frame whose native WebMCP (a stand-in: it cannot run in happy-dom) offers `echo` and `hang`; `hang` runs until
 * its signal aborts. The rest of the call's world is real: the cursor, the settle watch, the listing.
 */
async function frame() {
  const win = window as unknown as Window & typeof globalThis;
  const runs: { name: string; signal?: AbortSignal }[] = [];
  const tool = (name: string) => new FakeChromeTool({ name, title: null, description: name, inputSchema: null, source: win });
  const native = Object.assign(new EventTarget(), {
    getTools: async () => [tool('echo'), tool('hang')],
    executeTool: (entry: unknown, input: unknown, options?: { signal?: AbortSignal }) => {
      const name = (entry as { name: string }).name;
      runs.push({ name, ...(options?.signal ? { signal: options.signal } : {}) });
      if (name === 'echo') return Promise.resolve(JSON.stringify(input));
      return new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
    },
  });
  const cursor = createToolCursor(document);
  let nativeTools = new Map<string, unknown>();
  const list = async () => {
    const listed = await listFrameTools({ win, doc: document, native });
    nativeTools = listed.nativeTools;
    return listed.report;
  };
  const activity = createSettleWatch({ win, doc: document, cursor, capMs: 50, list, isUnloading: () => false });
  const inFlight = new Set<(update: FrameCallUpdate) => void>();
  const deps = {
    win,
    doc: document,
    native,
    cursor,
    activity,
    currentList: () => undefined,
    list,
    nativeTool: (name: string) => nativeTools.get(name),
    isLastList: () => false,
    reported: () => undefined,
    isUnloading: () => false,
    inFlight,
  };
  const request = (name: string, input: unknown) => ({ callId: 'c', name, input, timeoutMs: 5_000, maxResultChars: 1_000 });
  const textOf = (result: unknown) => (result as { output: { content: { text: string }[] } }).output.content[0].text;
  return { deps, runs, request, textOf, inFlight };
}

describe('runFrameCall', () => {
  it('runs the tool with its input; refuses input that is no JSON object, and a tool the frame lacks, before running anything', async () => {
    const { deps, runs, request, textOf } = await frame();
    expect(textOf(await runFrameCall(deps, request('echo', '{"q":"tea"}')))).toBe('{"q":"tea"}');
    expect(textOf(await runFrameCall(deps, request('echo', '[1]')))).toBe(
      'Error [invalid_input]: The input must be a JSON object; got an array.',
    );
    expect(textOf(await runFrameCall(deps, request('pay', {})))).toBe(
      'Error [unknown_tool]: No tool named "pay" in this frame (tools here: echo, hang).',
    );
    expect(runs.map((r) => r.name)).toEqual(['echo']);
  });

  it('the router’s cancel: before the call starts it runs nothing; while it runs the tool’s signal aborts', async () => {
    const { deps, runs, request, textOf, inFlight } = await frame();
    const early = new AbortController();
    early.abort();
    expect(textOf(await runFrameCall(deps, request('hang', {}), { signal: early.signal }))).toBe(
      'Error [cancelled]: The call was cancelled before it started.',
    );
    expect(runs).toEqual([]);
    const stop = new AbortController();
    const running = runFrameCall(deps, request('hang', {}), { signal: stop.signal });
    await expect.poll(() => runs.length).toBe(1);
    expect(inFlight.size).toBe(1);
    stop.abort();
    expect(textOf(await running)).toBe('Error [cancelled]: "hang" was cancelled; the page was told (toolcancel).');
    expect(runs[0].signal?.aborted).toBe(true);
    expect(inFlight.size).toBe(0);
  });
});
