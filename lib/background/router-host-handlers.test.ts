import { describe, expect, it } from 'vitest';
import type { CallStateUpdate } from '../messaging/router-messages';
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
  const handlers = routerHostHandlers({ router, snapshot: (tabId) => router.getTools(tabId) });
  const call = handlers['router/call-tool'];
  if (!call) throw new Error('no call handler');
  return { call, signals };
}

describe('routerHostHandlers', () => {
  it('runs a call for the host, tells it the call waits as an update, and ends it when the line’s signal aborts', async () => {
    const { call, signals } = await stand();
    const heard: CallStateUpdate[] = [];
    const controller = new AbortController();
    const answer = call(
      { tabId: 1, call: { id: 'c', name: 'pay', input: {} } },
      { signal: controller.signal, update: (u) => heard.push(u) },
    );
    await until(async () => expect(heard).toEqual([expect.objectContaining({ state: 'awaiting-confirmation' })]));
    controller.abort();
    expect(await answer).toMatchObject({ output: { isError: true }, snapshot: { tools: [{ name: 'pay' }] } });
    await until(async () => expect(signals[0].aborted).toBe(true));
  });

  it('an approval it cannot read runs nothing', async () => {
    const { call, signals } = await stand();
    const answer = await call(
      { tabId: 1, call: { id: 'c', name: 'pay', input: {} }, expect: { frameId: 'zero' } as never },
      { signal: new AbortController().signal, update: () => undefined },
    );
    expect(answer.output.content[0]).toEqual({
      type: 'text',
      text: 'Error [tool_changed]: The approval of "pay" could not be read. Nothing was run.',
    });
    expect(signals).toEqual([]);
  });
});
