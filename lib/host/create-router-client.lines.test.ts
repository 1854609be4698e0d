/**
 * The agent host's line to the router (issue 48 item 1): the host (createRouterClient) and a background (the real
 * router, its end of the line: set-up-router-lines.ts) over test doubles of runtime Ports and messages
 * (lib/testing/router-line-stand.ts). When the line drops, what was pending fails with the line's one error: a call
 * the host waits for when the service worker stops, and a call the router runs for a host that went away. A Stop
 * reaches the router's handler as an aborted signal, and so the page's tool.
 */
import { describe, expect, it, vi } from 'vitest';
import { createRouterLineStand } from '../testing/router-line-stand';
import { report, setup, tool } from '../testing/tool-router-fixtures';

/** A router whose page's `pay` waits for the person until its signal aborts and `echo` answers, and the host's client. */
function stand() {
  const signals: AbortSignal[] = [];
  let line: ReturnType<typeof createRouterLineStand> | undefined;
  const { router } = setup(
    async (message, _frameId, context) => {
      if (message.type !== 'bridge/call' || !context) return undefined;
      if (message.name === 'echo') return { kind: 'output', output: { content: [{ type: 'text', text: 'echo' }] } };
      signals.push(context.signal);
      context.update({ state: 'awaiting-confirmation' });
      return new Promise(() => {});
    },
    undefined,
    { notifyHost: (message) => line?.notifyHost(message) },
  );
  router.handleFrameMessage(
    { type: 'frame/tools', report: report('http://a.test', [tool('pay', { declarative: true, needsConfirmation: true }), tool('echo')]) },
    { tabId: 1, frameId: 0 },
  );
  router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', [tool('echo')]) }, { tabId: 2, frameId: 0 });
  line = createRouterLineStand({ handlers: () => router.hostHandlers() });
  return { ...line, signals };
}

const pay = { id: 'c', name: 'pay', input: {} };

describe('the router’s line, when it drops', () => {
  it('a call the host waits for when the service worker stops fails with the line’s one error; the next ask gets a new line', async () => {
    const { client, signals, stopWorker } = stand();
    const states: unknown[] = [];
    const call = client.callTool(1, pay, { onState: (state) => states.push(state) });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    await vi.waitFor(() => expect(states).toEqual([expect.objectContaining({ state: 'awaiting-confirmation' })]));
    stopWorker();
    expect(await call).toEqual({
      content: [{ type: 'text', text: 'Error [frame_gone]: The extension background went away before it answered.' }],
      isError: true,
    });
    // The host's next ask calls for a line, which wakes a new worker: it opens one. (Another tab: the stopped worker's
    // router, which this test keeps, still holds tab 1's call; Chrome's would be gone with it.)
    expect(await client.callTool(2, { id: 'd', name: 'echo', input: {} })).toEqual({ content: [{ type: 'text', text: 'echo' }] });
  });

  it('a host that goes away cancels what it asked for: the page’s call sees its signal abort', async () => {
    const { client, signals, hostGone } = stand();
    void client.callTool(1, pay);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    // The offscreen document closes (or reloads): the Port it took closes.
    hostGone();
    await vi.waitFor(() => expect(signals[0].aborted).toBe(true));
  });

  it('a Stop reaches the router’s handler as an aborted signal, and the page’s call with it', async () => {
    const { client, signals } = stand();
    const controller = new AbortController();
    const call = client.callTool(1, pay, { signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    controller.abort();
    expect(await call).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "pay" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
    await vi.waitFor(() => expect(signals[0].aborted).toBe(true));
  });
});
