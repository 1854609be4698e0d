/**
 * One call of the router with its real parts around it; the frame is played by hand in `sendToFrame`
 * (tabs.sendMessage cannot run in Node) and answers on the call line as the frame's bridge does.
 */
import { describe, expect, it } from 'vitest';
import { MAX_RAW_RESULT_CHARS } from '../agent/cap-tool-output';
import type { BackgroundToFrameMessage, FrameCallRequest } from '../messaging/router-messages';
import { frameCallIn } from '../testing/frame-call-in';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { report, tool, until } from '../testing/tool-router-fixtures';
import { createContinuations } from './create-continuations';
import { createFrameLines } from './create-frame-lines';
import { createPageBudget } from './create-page-budget';
import { createTabRegistry } from './create-tab-registry';
import { createNavigationFollower } from './follow-navigation';
import { type RunningCall, runToolCall } from './run-tool-call';

/** A tab 1 whose top frame offers `tools`, and a frame that answers each call with `answer`. */
async function stand(answer: (call: FrameCallRequest) => Promise<unknown>) {
  const sendToFrame = async (_tabId: number, _frameId: number, message: BackgroundToFrameMessage) => {
    const call = frameCallIn(message);
    return call ? call.answer(await answer(call)) : null;
  };
  const registry = createTabRegistry({ store: createMemoryStorageArea(), sendToFrame, setBadge: () => undefined });
  const navigation = createNavigationFollower({ navigationTimeoutMs: 100, maxResultChars: 1_000 });
  const running = new Map<string, RunningCall>();
  let counter = 0;
  const deps = {
    ports: { sendToFrame },
    registry,
    navigation,
    continuations: createContinuations(),
    budget: createPageBudget(),
    lines: createFrameLines(sendToFrame),
    running,
    callTimeoutMs: 1_000,
    maxResultChars: 1_000,
    maxReportBytes: 1024 * 1024,
    checkCrashed: async () => undefined,
    nextCallId: () => `call-${++counter}`,
  };
  const sender = { tabId: 1, frameId: 0, origin: 'http://a.test', url: 'http://a.test/' };
  await registry.frameReported(1, 0, { ...report('http://a.test', [tool('find')]), ...sender });
  return { deps, registry, running };
}

describe('runToolCall', () => {
  it('refuses a huge result unread, caps the rest, and takes the list the frame brought as its report', async () => {
    let huge = true;
    const { deps, registry, running } = await stand(async () =>
      huge
        ? { kind: 'output', output: { content: [{ type: 'text', text: 'x'.repeat(MAX_RAW_RESULT_CHARS + 1) }] } }
        : {
            kind: 'output',
            output: { content: [{ type: 'text', text: 'y'.repeat(5_000) }] },
            report: report('http://a.test', [tool('find'), tool('more')]),
          },
    );
    const first = await runToolCall(deps, 1, { id: '1', name: 'find', input: {} }, {});
    expect(first.content[0]).toMatchObject({
      text: expect.stringMatching(/^Error \[too_large\]: "find" returned a result of more than 1,000,000 characters/),
    });
    huge = false;
    const second = await runToolCall(deps, 1, { id: '2', name: 'find', input: {} }, {});
    expect(JSON.stringify(second).length).toBeLessThan(2_000);
    await until(async () => expect((await registry.snapshot(1)).tools.map((t) => t.name)).toEqual(['find', 'more']));
    expect(running.size).toBe(0);
  });

  it('the person’s Stop ends a call at once, also while it follows the page it navigated to', async () => {
    const stop = new AbortController();
    // The frame answers that the call navigated; the person presses Stop once the router follows it.
    const { deps } = await stand(async () => {
      setTimeout(() => stop.abort(), 0);
      return { kind: 'navigated' };
    });
    const call = runToolCall(deps, 1, { id: '1', name: 'find', input: {} }, { signal: stop.signal, timeoutMs: 60_000 });
    expect((await call).content[0]).toMatchObject({ text: 'Error [cancelled]: "find" was cancelled; the page was told (toolcancel).' });
  });
});
