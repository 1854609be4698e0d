import { describe, expect, it } from 'vitest';
import { setUpRouterLines } from '../background/set-up-router-lines';
import type { LineHandlers } from '../messaging/create-request-line';
import { FORM_WAITS_PROMPT, ROUTER_PORT_NAME, type RouterLine } from '../messaging/router-messages';
import { createRuntimeConnectEvent } from '../testing/runtime-port-pair';
import { report, settle, setup, tool, until } from '../testing/tool-router-fixtures';
import { createRouterClient } from './create-router-client';

const EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const OFFSCREEN = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };

/**
 * A background's end of the router's line (set-up-router-lines.ts) answering with `handlers`, and a client that
 * connects to it; `asked` records the asks and notices that reach the background, `callHost` its calls for a line.
 */
function stand(handlers: () => LineHandlers<RouterLine>, options: { keepaliveMs?: number } = {}) {
  const runtime = createRuntimeConnectEvent();
  const asked: string[] = [];
  const calls: unknown[] = [];
  let connectAsked: () => void = () => undefined;
  const lines = setUpRouterLines(
    {
      runtime: {
        onConnect: {
          // Every message on the accepted Port is recorded as it arrives (its type, for asks and notices).
          addListener: (listener) =>
            runtime.onConnect.addListener((port) => {
              port.onMessage.addListener((m) => {
                const type = (m as { type?: string }).type;
                if (type) asked.push(type);
              });
              listener(port);
            }),
        },
        sendMessage: async (message) => {
          calls.push(message);
          connectAsked();
        },
      },
    },
    { extension: EXTENSION, handlers, callHostWhenAway: true },
  );
  const client = createRouterClient({
    connect: () => runtime.connect(ROUTER_PORT_NAME, OFFSCREEN),
    onConnectAsked: (listener) => {
      connectAsked = listener;
    },
    ...options,
  });
  return { client, lines, asked, calls, runtime };
}

describe('createRouterClient (the offscreen host) against the router, on the router’s line', () => {
  it('gets snapshots, runs calls, relays awaiting-confirmation states and tool changes, and cancels', async () => {
    let release!: () => void;
    const signals: AbortSignal[] = [];
    let lines: ReturnType<typeof stand>['lines'] | undefined;
    const { router } = setup(
      async (message, _frameId, context) => {
        if (message.type !== 'bridge/call' || !context) return undefined;
        signals.push(context.signal);
        context.update({ state: 'awaiting-confirmation' });
        await new Promise<void>((r) => {
          release = r;
        });
        return { kind: 'output', output: { content: [{ type: 'text', text: 'sent' }] } };
      },
      undefined,
      { notifyHost: (message) => lines?.notifyHost(message) },
    );
    const stood = stand(() => router.hostHandlers());
    ({ lines } = stood);
    const { client, asked } = stood;
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    // The first look at a tab asks the router, which watches the tab from then on and pushes its changes.
    expect((await client.getTools(1)).tools).toEqual([]);
    expect(asked).toEqual(['router/get-tools']);
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('send', { declarative: true, needsConfirmation: true })]) },
      { tabId: 1, frameId: 0 },
    );
    // Pushed (coalesced over a few milliseconds): the client learns without asking.
    await until(async () => expect((await client.getTools(1)).tools.map((t) => t.name)).toEqual(['send']));
    expect(changed.at(-1)).toBe(1);
    expect(asked).toEqual(['router/get-tools']);

    const states: unknown[] = [];
    const call = client.callTool(1, { id: 'c', name: 'send', input: {} }, { onState: (s) => states.push(s) });
    // A form's call that waits for the person, in the background's own words.
    await until(async () => expect(states).toEqual([{ state: 'awaiting-confirmation', prompt: FORM_WAITS_PROMPT }]));
    release();
    expect(await call).toEqual({ content: [{ type: 'text', text: 'sent' }] });
    // One call, one ask: its answer brought the tools after it.
    expect(asked).toEqual(['router/get-tools', 'router/call-tool']);

    const controller = new AbortController();
    const cancelled = client.callTool(1, { id: 'd', name: 'send', input: {} }, { signal: controller.signal });
    await until(async () => expect(signals).toHaveLength(2));
    controller.abort();
    expect(await cancelled).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "send" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
    await until(async () => expect(signals[1].aborted).toBe(true));
  });

  it('keeps the background awake while a call waits, and stops when it ends', async () => {
    let answer!: (value: never) => void;
    const { client, asked } = stand(
      () => ({
        'router/call-tool': () => new Promise((r) => (answer = r)),
      }),
      { keepaliveMs: 20 },
    );
    const call = client.callTool(1, { id: 'x', name: 't', input: {} });
    await until(async () => expect(asked.filter((t) => t === 'router/keepalive').length).toBeGreaterThanOrEqual(2));
    answer({ output: { content: [{ type: 'text', text: 'done' }] }, snapshot: { tabId: 1, tools: [], page: {}, revision: 1 } } as never);
    expect(await call).toEqual({ content: [{ type: 'text', text: 'done' }] });
    // One sent just before the answer may still be on its way.
    await settle();
    const count = asked.filter((t) => t === 'router/keepalive').length;
    await new Promise((r) => setTimeout(r, 100));
    expect(asked.filter((t) => t === 'router/keepalive').length).toBe(count);
  });

  it('never rejects: a background it cannot reach is frame_gone', async () => {
    const client = createRouterClient({
      connect: () => {
        throw new Error('Extension context invalidated.');
      },
    });
    expect(await client.callTool(1, { id: 'x', name: 't', input: {} })).toEqual({
      content: [
        { type: 'text', text: 'Error [frame_gone]: The extension background went away before it answered: Extension context invalidated.' },
      ],
      isError: true,
    });
  });

  it('tells its subscribers of a snapshot once: the push of the revision a call’s answer brought is no news', async () => {
    const snapshot = (revision: number, tools: string[]) => ({
      tabId: 1,
      revision,
      page: {},
      tools: tools.map((name) => ({ name, originalName: name, description: name, inputSchema: {}, origin: 'https://a.test', frameId: 0 })),
    });
    const { client, lines } = stand(() => ({
      'router/call-tool': () => ({ output: { content: [{ type: 'text', text: 'ok' }] }, snapshot: snapshot(7, ['a', 'b']) }),
    }));
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    const push = async (revision: number, tools: string[]) => {
      lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(revision, tools) });
      await settle();
    };
    await push(5, ['a']);
    await client.callTool(1, { id: 'c', name: 'a', input: {} });
    expect(changed).toEqual([1, 1]);
    await push(7, ['a', 'b']);
    await push(6, ['a']);
    expect(changed).toEqual([1, 1]);
    // The same revision with other tools (a state the router changed without saving) is news all the same.
    await push(7, ['b']);
    expect(changed).toEqual([1, 1, 1]);
    expect((await client.getTools(1)).tools.map((t) => t.name)).toEqual(['b']);
  });

  it('opens a new line when the router, started again, has news for it; the news held meanwhile arrives', async () => {
    let runtime = createRuntimeConnectEvent();
    let connectAsked: () => void = () => undefined;
    const client = createRouterClient({
      connect: () => runtime.connect(ROUTER_PORT_NAME, OFFSCREEN),
      onConnectAsked: (listener) => {
        connectAsked = listener;
      },
    });
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    // The worker stops: the host's line closes, and the host does not open another on its own (the worker may rest).
    runtime.stop();
    await settle();
    runtime = createRuntimeConnectEvent();
    let connected = 0;
    runtime.onConnect.addListener(() => void connected++);
    const calls: unknown[] = [];
    const lines = setUpRouterLines(
      {
        runtime: {
          onConnect: runtime.onConnect,
          sendMessage: async (message) => {
            calls.push(message);
            connectAsked();
          },
        },
      },
      { extension: EXTENSION, handlers: () => ({}), callHostWhenAway: true },
    );
    await settle();
    expect(connected).toBe(0);
    // The worker woke for a page's news: with no line, it is held and the host called, which connects and gets it.
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: { tabId: 1, tools: [], page: {}, revision: 3 } });
    await until(async () => expect(changed).toEqual([1]));
    expect(calls).toEqual([{ type: 'host/connect-router' }]);
    expect(connected).toBe(1);
  });
});
