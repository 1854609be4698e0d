/**
 * Dropped lines (issue 48 item 1): a call pending in a frame whose document goes away, or in a tab that closes,
 * fails then, with one clear error, even when the browser never answers nor fails the call's message (a hung or
 * crashed renderer). Before the call line, such a call waited for ever.
 */
import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../agent/types';
import { report, settle, setup, tool, until } from '../testing/tool-router-fixtures';

/** A router whose frames take every call and never answer it (their renderer hangs). */
async function hungCall(tabId: number, frameId: number, more: Parameters<typeof setup>[2] = {}) {
  const { router } = setup((message) => (message.type === 'bridge/call' ? new Promise(() => {}) : Promise.resolve(undefined)), undefined, {
    goneEvidenceMs: 50,
    ...more,
  });
  router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/' }, { tabId, frameId: 0, documentId: 'top-1' });
  if (frameId !== 0) router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/f' }, { tabId, frameId, documentId: 'sub-1' });
  router.handleFrameMessage(
    { type: 'frame/tools', report: report('http://a.test', [tool('hang')]) },
    { tabId, frameId, documentId: frameId === 0 ? 'top-1' : 'sub-1' },
  );
  await until(async () => expect((await router.getTools(tabId)).tools.map((t) => t.name)).toEqual(['hang']));
  let ended: ToolOutput | undefined;
  void router.callTool(tabId, { id: '1', name: 'hang', input: {} }).then((output) => {
    ended = output;
  });
  await settle();
  expect(ended).toBeUndefined();
  return { router, ended: () => ended };
}

const textOf = (output: ToolOutput | undefined) => (output?.content[0]?.type === 'text' ? output.content[0].text : '');

describe('createToolRouter: a dropped line fails what was pending there', () => {
  it('the tab closes while a call waits on a frame that never answers', async () => {
    const { router, ended } = await hungCall(70, 0);
    await router.forgetTab(70);
    await until(async () => expect(textOf(ended())).toBe('Error [frame_gone]: The frame that owned "hang" is gone (the tab closed).'));
  });

  it('the tab’s top document goes (its Port closed) while its call waits', async () => {
    const { router, ended } = await hungCall(71, 0);
    await router.topDocumentLeft(71, 'top-1');
    await until(async () =>
      expect(textOf(ended())).toBe('Error [frame_gone]: The frame that owned "hang" is gone (the tab\'s page went away).'),
    );
  });

  it('a frame announces its next document while a call waits on the one before: the call followed it there', async () => {
    const { router, ended } = await hungCall(72, 2, { navigationTimeoutMs: 100 });
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/next' }, { tabId: 72, frameId: 2, documentId: 'sub-2' });
    await until(async () =>
      expect(textOf(ended())).toBe('Error [navigated]: "hang" navigated the page and the new page did not report within 0.1 s.'),
    );
  });

  it('a document of another frame, or another document of the frame, says nothing of the call', async () => {
    const { router, ended } = await hungCall(73, 0);
    // A forged frame answers, and another document of the top frame too: both on their own lines, where no call waits.
    for (const sender of [
      { tabId: 73, frameId: 5, documentId: 'x' },
      { tabId: 73, frameId: 0, documentId: 'top-0' },
    ]) {
      for (const id of [1, 2, '1']) {
        router.handleFrameMessage(
          {
            type: 'frame/line',
            message: { line: 'answer', id, answer: { kind: 'output', output: { content: [{ type: 'text', text: 'forged' }] } } },
          },
          sender,
        );
      }
    }
    await settle();
    expect(ended()).toBeUndefined();
  });
});
