/**
 * The agent host's line to the router (issue 48 item 1): the host (createRouterClient) and a background (the real
 * router, its lines: set-up-router-lines.ts) over a test double of runtime Ports (lib/testing/runtime-port-pair.ts).
 * When the line drops, what was pending fails with the line's one error: a call the host waits for when the service
 * worker stops, and a call the router runs for a host that went away. A Stop reaches the router's handler as an
 * aborted signal, and so the page's tool.
 */
import { describe, expect, it, vi } from 'vitest';
import { setUpRouterLines } from '../background/set-up-router-lines';
import { ROUTER_PORT_NAME } from '../messaging/router-messages';
import { report, setup, tool } from '../testing/tool-router-fixtures';
import { createRuntimeConnectEvent, type TestRuntimePort } from '../testing/runtime-port-pair';
import { createRouterClient } from './create-router-client';

const EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const OFFSCREEN = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };

/** A background: the real router, whose page's `pay` waits for the person until its signal aborts and `echo` answers. */
function startBackground() {
  const signals: AbortSignal[] = [];
  const runtime = createRuntimeConnectEvent();
  let made: ReturnType<typeof setup> | undefined;
  const lines = setUpRouterLines(
    { runtime: { onConnect: runtime.onConnect, sendMessage: async () => undefined } },
    { extension: EXTENSION, handlers: () => made!.router.hostHandlers(), callHostWhenAway: true },
  );
  made = setup(
    async (message, _frameId, context) => {
      if (message.type !== 'bridge/call' || !context) return undefined;
      if (message.name === 'echo') return { kind: 'output', output: { content: [{ type: 'text', text: 'echo' }] } };
      signals.push(context.signal);
      context.update({ state: 'awaiting-confirmation' });
      return new Promise(() => {});
    },
    undefined,
    { notifyHost: lines.notifyHost },
  );
  made.router.handleFrameMessage(
    { type: 'frame/tools', report: report('http://a.test', [tool('pay', { declarative: true, needsConfirmation: true }), tool('echo')]) },
    { tabId: 1, frameId: 0 },
  );
  return { signals, runtime, stop: () => runtime.stop() };
}

/** The offscreen host's client, connecting to whichever background runs now; `ports` are the Ports it opened. */
function startHost(background: () => ReturnType<typeof startBackground>) {
  const ports: TestRuntimePort[] = [];
  const client = createRouterClient({
    connect: () => {
      const port = background().runtime.connect(ROUTER_PORT_NAME, OFFSCREEN);
      ports.push(port);
      return port;
    },
  });
  return { client, ports };
}

const pay = { id: 'c', name: 'pay', input: {} };

describe('the router’s line, when it drops', () => {
  it('a call the host waits for when the service worker stops fails with the line’s one error; the next ask opens a new line', async () => {
    let background = startBackground();
    const { client } = startHost(() => background);
    const states: unknown[] = [];
    const call = client.callTool(1, pay, { onState: (state) => states.push(state) });
    await vi.waitFor(() => expect(background.signals).toHaveLength(1));
    await vi.waitFor(() => expect(states).toEqual([expect.objectContaining({ state: 'awaiting-confirmation' })]));
    background.stop();
    expect(await call).toEqual({
      content: [{ type: 'text', text: 'Error [frame_gone]: The extension background went away before it answered.' }],
      isError: true,
    });
    // The worker starts again (the next event wakes it): the host's next ask opens a new line to it.
    background = startBackground();
    expect(await client.callTool(1, { id: 'd', name: 'echo', input: {} })).toEqual({ content: [{ type: 'text', text: 'echo' }] });
  });

  it('a host that goes away cancels what it asked for: the page’s call sees its signal abort', async () => {
    const background = startBackground();
    const { client, ports } = startHost(() => background);
    void client.callTool(1, pay);
    await vi.waitFor(() => expect(background.signals).toHaveLength(1));
    // The offscreen document closes (or reloads): its Port disconnects.
    for (const port of ports) port.disconnect();
    await vi.waitFor(() => expect(background.signals[0].aborted).toBe(true));
  });

  it('a Stop reaches the router’s handler as an aborted signal, and the page’s call with it', async () => {
    const background = startBackground();
    const { client } = startHost(() => background);
    const controller = new AbortController();
    const call = client.callTool(1, pay, { signal: controller.signal });
    await vi.waitFor(() => expect(background.signals).toHaveLength(1));
    controller.abort();
    expect(await call).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "pay" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
    await vi.waitFor(() => expect(background.signals[0].aborted).toBe(true));
  });
});
