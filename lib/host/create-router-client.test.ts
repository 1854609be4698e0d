import { describe, expect, it } from 'vitest';
import { FORM_WAITS_PROMPT, ROUTER_PORT_NAME } from '../messaging/router-messages';
import { createRouterLineStand, STAND_EXTENSION, STAND_OFFSCREEN } from '../testing/router-line-stand';
import { report, settle, setup, tool, until } from '../testing/tool-router-fixtures';
import { createRouterClient } from './create-router-client';

/** What the host sends on its line, by type (asks and notices). */
function recorder() {
  const asked: string[] = [];
  return {
    asked,
    onHostSend: (message: unknown) => {
      const type = (message as { type?: unknown }).type;
      if (typeof type === 'string') asked.push(type);
    },
  };
}

describe('createRouterClient (the offscreen host) against the router, on the router’s line', () => {
  it('gets snapshots, runs calls, relays awaiting-confirmation states and tool changes, and cancels', async () => {
    let release!: () => void;
    const signals: AbortSignal[] = [];
    let line: ReturnType<typeof createRouterLineStand> | undefined;
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
      { notifyHost: (message) => line?.notifyHost(message) },
    );
    const { asked, onHostSend } = recorder();
    line = createRouterLineStand({ handlers: () => router.hostHandlers(), onHostSend });
    const { client } = line;
    await settle();
    // The host took the line the router opened.
    expect(asked).toEqual(['router/ready']);
    asked.length = 0;
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
    const { asked, onHostSend } = recorder();
    const { client } = createRouterLineStand({
      handlers: () => ({ 'router/call-tool': () => new Promise((r) => (answer = r)) }),
      keepaliveMs: 20,
      onHostSend,
    });
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

  it('never rejects: a background that opens no line in time is frame_gone', async () => {
    const client = createRouterClient({
      onConnect: { addListener: () => undefined },
      extension: STAND_EXTENSION,
      serviceWorkerUrl: 'chrome-extension://ext-id/background.js',
      callRouter: () => undefined,
      lineWaitMs: 20,
    });
    expect(await client.callTool(1, { id: 'x', name: 't', input: {} })).toEqual({
      content: [{ type: 'text', text: 'Error [frame_gone]: The extension background did not answer.' }],
      isError: true,
    });
  });

  it('takes the router’s line only from the service worker: one of the extension’s pages is cut off', async () => {
    const asked: string[] = [];
    const { connectToHost, client } = createRouterLineStand({
      handlers: () => ({
        'router/get-tools': (request) => {
          asked.push('get-tools');
          return { tabId: request.tabId, tools: [], page: {} };
        },
      }),
    });
    const forged = connectToHost(ROUTER_PORT_NAME, STAND_OFFSCREEN);
    let cut = false;
    forged.onDisconnect.addListener(() => {
      cut = true;
    });
    const heard: unknown[] = [];
    forged.onMessage.addListener((m) => heard.push(m));
    await settle();
    expect(cut).toBe(true);
    // The host still asks on the service worker's line.
    expect((await client.getTools(1)).tabId).toBe(1);
    expect(asked).toEqual(['get-tools']);
    expect(heard).toEqual([]);
  });

  it('tells its subscribers of a snapshot once: the push of the revision a call’s answer brought is no news', async () => {
    const snapshot = (revision: number, tools: string[]) => ({
      tabId: 1,
      revision,
      page: {},
      tools: tools.map((name) => ({ name, originalName: name, description: name, inputSchema: {}, origin: 'https://a.test', frameId: 0 })),
    });
    const { client, notifyHost } = createRouterLineStand({
      handlers: () => ({
        'router/call-tool': () => ({ output: { content: [{ type: 'text', text: 'ok' }] }, snapshot: snapshot(7, ['a', 'b']) }),
      }),
    });
    await settle();
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    const push = async (revision: number, tools: string[]) => {
      notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: snapshot(revision, tools) });
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

  it('gets the news the router held while it had no line, once a new worker opened one', async () => {
    const { client, notifyHost, stopWorker } = createRouterLineStand({ handlers: () => ({}) });
    const changed: number[] = [];
    client.subscribe((tabId) => changed.push(tabId));
    await settle();
    // The worker stops: the host's line closes, and no one opens another (the worker may rest).
    stopWorker();
    await settle();
    // A page's news wakes a worker: with no line the host took, it is held, a line opened, and the news sent on it.
    notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: { tabId: 1, tools: [], page: {}, revision: 3 } });
    await until(async () => expect(changed).toEqual([1]));
  });
});
