import { describe, expect, it } from 'vitest';
import type { BackgroundToHostMessage, RouterChannel } from '../messaging/router-messages';
import { handleMessage } from '../messaging/channel';
import { report, settle, setup, tool, until } from '../testing/tool-router-fixtures';
import { routerHostHandlers } from './router-host-handlers';

/** The handlers around a real router whose frame runs `pay` until the call's signal aborts, saying it waits. */
async function stand() {
  const signals: AbortSignal[] = [];
  const { router } = setup(async (message, _frameId, context) => {
    if (message.type !== 'bridge/call' || !context) return undefined;
    signals.push(context.signal);
    context.update({ state: 'awaiting-confirmation' });
    return new Promise(() => {});
  });
  router.handleFrameMessage(
    { type: 'frame/tools', report: report('http://a.test', [tool('pay', { declarative: true, needsConfirmation: true })]) },
    { tabId: 1, frameId: 0 },
  );
  await settle();
  const heard: BackgroundToHostMessage[] = [];
  const handlers = routerHostHandlers({ router, snapshot: (tabId) => router.getTools(tabId), notifyHost: (m) => heard.push(m) });
  const ask = (message: { type: keyof RouterChannel; [field: string]: unknown }) =>
    handleMessage(handlers, message, undefined) as Promise<unknown>;
  return { ask, heard, signals };
}

describe('routerHostHandlers', () => {
  it('runs a call for the host, tells it the call waits under its requestId, and cancels it when asked', async () => {
    const { ask, heard, signals } = await stand();
    const answer = ask({ type: 'router/call-tool', requestId: 'r1', tabId: 1, call: { id: 'c', name: 'pay', input: {} } });
    await until(async () =>
      expect(heard).toEqual([expect.objectContaining({ type: 'host/call-state', requestId: 'r1', state: 'awaiting-confirmation' })]),
    );
    expect(await ask({ type: 'router/cancel-call', requestId: 'r1' })).toBe(true);
    expect(await answer).toMatchObject({ output: { isError: true }, snapshot: { tools: [{ name: 'pay' }] } });
    await until(async () => expect(signals[0].aborted).toBe(true));
  });

  it('an approval it cannot read runs nothing', async () => {
    const { ask, signals } = await stand();
    const answer = (await ask({
      type: 'router/call-tool',
      requestId: 'r2',
      tabId: 1,
      call: { id: 'c', name: 'pay', input: {} },
      expect: { frameId: 'zero' },
    })) as { output: { content: { text: string }[] } };
    expect(answer.output.content[0].text).toBe('Error [tool_changed]: The approval of "pay" could not be read. Nothing was run.');
    expect(signals).toEqual([]);
  });
});
