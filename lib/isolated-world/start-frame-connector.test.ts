// @vitest-environment happy-dom
import { Window as HappyWindow } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustDeliveredMessages } from '../../tests/fixtures/trusted-port-messages';
import { DOCUMENT_PORT_NAME, type FrameReport } from '../messaging/router-messages';
import { PolyfillModelContext } from '../page-world/install-model-context-polyfill';
import { servePageTools } from '../page-world/serve-page-tools';
import { ISOLATED_KEYS_GLOBAL } from '../webmcp/connector-keys';
import { type FrameConnectorRuntime, startFrameConnector } from './start-frame-connector';

/**
 * The isolated world's bridge in one happy-dom window, with the page world's polyfill serving the other end of the
 * real page channel, and a stand-in for `browser.runtime` that records what the bridge tells the background.
 */
function frame() {
  const win = window as unknown as Window & typeof globalThis;
  const polyfill = new PolyfillModelContext(win);
  const key = `key-${Math.random()}`;
  const { prove } = servePageTools(win, { polyfill });
  const sent: { type: string; [field: string]: unknown }[] = [];
  const listeners: Parameters<FrameConnectorRuntime['onMessage']['addListener']>[0][] = [];
  const connectListeners: Parameters<NonNullable<FrameConnectorRuntime['onConnect']>['addListener']>[0][] = [];
  const runtime: FrameConnectorRuntime = {
    onConnect: { addListener: (l) => void connectListeners.push(l) },
    sendMessage: async (message) => {
      sent.push(message as (typeof sent)[number]);
      return (message as { type: string }).type === 'frame/may-use-tools' ? true : undefined;
    },
    onMessage: {
      addListener: (l) => {
        listeners.push(l);
      },
    },
  };
  // The isolated world's global, where the background puts this load's key (lib/background/load-connector.ts).
  const scope = { [ISOLATED_KEYS_GLOBAL]: [key] };
  const start = () => startFrameConnector(win, runtime, scope);
  /**
   * Sends a router message to the bridge as tabs.sendMessage would (every listener of the world hears it, the first
   * that takes it answers); undefined when no bridge took it.
   */
  const ask = (message: unknown) =>
    new Promise<unknown>((resolve) => {
      if (!listeners.some((listener) => listener(message, {}, resolve))) resolve(undefined);
    });
  const reports = () => sent.filter((m) => m.type === 'frame/tools').map((m) => m.report as FrameReport);
  /**
   * The background opens its Port to this document (tabs.connect, DOCUMENT_PORT_NAME), as create-document-ports.ts
   * does; `disconnect` is the browser closing it (a stopped service worker).
   */
  const connect = () => {
    const closed: (() => void)[] = [];
    for (const l of connectListeners) l({ name: DOCUMENT_PORT_NAME, onDisconnect: { addListener: (c) => void closed.push(c) } });
    return {
      disconnect: () => {
        for (const c of closed) c();
      },
    };
  };
  return { polyfill, prove: () => prove(key), sent, start, ask, reports, listeners, connect };
}

/** The router's ask of a call on the document's call line (FrameCallLine). */
const callAsk = (id: number, name: string, input: unknown) => ({
  line: 'ask',
  id,
  type: 'bridge/call',
  request: { callId: `c${id}`, name, input, timeoutMs: 10_000, maxResultChars: 1_000 },
});

let trust: Awaited<ReturnType<typeof trustDeliveredMessages>>;
const idleWindow = window as unknown as { requestIdleCallback?: (callback: () => void) => number };
const hadIdle = 'requestIdleCallback' in idleWindow;
beforeAll(async () => {
  trust = await trustDeliveredMessages();
  // happy-dom has no requestIdleCallback; a browser runs the callback once the page is idle.
  if (!hadIdle) idleWindow.requestIdleCallback = (callback) => setTimeout(callback, 0) as unknown as number;
});
afterAll(() => {
  trust.restore();
  if (!hadIdle) delete idleWindow.requestIdleCallback;
});

describe('startFrameConnector', () => {
  it('announces its document, then reports the page tools once the page world answers', async () => {
    const f = frame();
    await f.polyfill.registerTool({ name: 'add_to_cart', description: 'Adds', execute: () => 'added' });
    f.start();
    f.prove();
    expect(f.sent[0]).toEqual({ type: 'frame/ready', url: location.href, needsDelegation: false });
    await expect
      .poll(() =>
        f
          .reports()
          .at(-1)
          ?.tools.map((t) => t.name),
      )
      .toEqual(['add_to_cart']);
  });

  it("stays out of a frame's initial about:blank while the frame loads its src: no modelContext read, nothing said", async () => {
    const parent = new HappyWindow({ url: 'https://shop.test/' });
    const child = new HappyWindow({ url: 'about:blank' });
    try {
      const element = parent.document.createElement('iframe');
      element.setAttribute('src', '/held.html');
      Object.defineProperty(child, 'frameElement', { configurable: true, value: element });
      // happy-dom has none; a browser runs the callback once the page is idle.
      Object.defineProperty(child, 'requestIdleCallback', { configurable: true, value: (callback: () => void) => setTimeout(callback, 0) });
      // Native WebMCP as the isolated world reads it: in Chromium 156 the first read binds the document's WebMCP host.
      let reads = 0;
      Object.defineProperty(child.document, 'modelContext', {
        configurable: true,
        get() {
          reads++;
          return Object.assign(new EventTarget(), { getTools: async () => [], executeTool: async () => null });
        },
      });
      const sent: unknown[] = [];
      const runtime: FrameConnectorRuntime = {
        sendMessage: async (message) => void sent.push(message),
        onMessage: { addListener: () => {} },
      };
      const scope = { [ISOLATED_KEYS_GLOBAL]: [] };
      const win = child as unknown as Window & typeof globalThis;
      startFrameConnector(win, runtime, scope);
      expect(reads).toBe(0);
      expect(sent).toEqual([]);
      // The load left the about:blank in place (a 204): the bridge serves it after all, once.
      element.dispatchEvent(new parent.Event('load'));
      startFrameConnector(win, runtime, scope);
      expect(reads).toBe(1);
      expect(sent).toEqual([{ type: 'frame/ready', url: 'about:blank', needsDelegation: expect.any(Boolean) }]);
    } finally {
      await parent.happyDOM.close();
      await child.happyDOM.close();
    }
  });

  it('starts once per world: a second injection adds nothing', async () => {
    const f = frame();
    f.start();
    f.start();
    f.prove();
    expect(f.sent.filter((m) => m.type === 'frame/ready')).toHaveLength(1);
  });

  it("a bridge started in a frame's initial about:blank hands over to the next document that reuses its window", async () => {
    // Chromium keeps the window, and this world's global with it, when a frame's initial about:blank gives way to
    // its first same-origin document (docs/platform-notes.md): the about:blank's bridge must not speak for the new
    // document, which announces itself with a bridge of its own.
    const f = frame();
    const blank = document;
    f.start();
    f.prove();
    const next = document.implementation.createHTMLDocument('next');
    Object.defineProperty(window, 'document', { configurable: true, get: () => next });
    try {
      f.sent.length = 0;
      f.start();
      expect(f.sent.filter((m) => m.type === 'frame/ready')).toHaveLength(1);
      // Only the new document's bridge answers the router from now on.
      expect(f.listeners).toHaveLength(2);
      expect(f.listeners[0]({ type: 'bridge/ping' }, {}, () => {})).toBe(false);
      expect(f.listeners[1]({ type: 'bridge/ping' }, {}, () => {})).toBe(true);
      // The about:blank's bridge tells the router nothing more: a report of its tools would pass for the new one's.
      f.sent.length = 0;
      window.dispatchEvent(new Event('pagehide'));
      expect(f.reports()).toHaveLength(1);
    } finally {
      Object.defineProperty(window, 'document', { configurable: true, get: () => blank });
    }
  });

  it('answers the router: ping, list and a call reach the page world; anything else is not taken', async () => {
    const f = frame();
    await f.polyfill.registerTool({ name: 'echo', description: 'Echoes', execute: (input: unknown) => JSON.stringify(input) });
    f.start();
    f.prove();
    expect(await f.ask({ type: 'bridge/ping' })).toEqual({ world: 'isolated', url: location.href, mainWorld: true });
    expect(((await f.ask({ type: 'bridge/list' })) as FrameReport).tools.map((t) => t.name)).toEqual(['echo']);
    const result = await f.ask({ type: 'bridge/line', message: callAsk(1, 'echo', { a: 1 }) });
    expect(result).toMatchObject({ line: 'answer', id: 1, answer: { kind: 'output' } });
    expect(JSON.stringify(result)).toContain('{\\"a\\":1}');
    expect(await f.ask({ type: 'bridge/no-such-verb' })).toBeUndefined();
    expect(await f.ask('not a message')).toBeUndefined();
  });

  it('a cancel on the call line reaches the tool; a line the background dropped aborts the calls no one waits for', async () => {
    const f = frame();
    const cancelled: string[] = [];
    f.polyfill.addEventListener('toolcancel', (event) => cancelled.push((event as Event & { toolName?: string }).toolName ?? '?'));
    let started = 0;
    await f.polyfill.registerTool({
      name: 'hang',
      description: 'Never ends',
      execute: () => {
        started++;
        return new Promise(() => {});
      },
    });
    f.start();
    f.prove();
    const port = f.connect();
    await expect.poll(() => f.reports().length).toBeGreaterThan(0);
    // The router cancels its ask: the answer that comes back says the page was told.
    const first = f.ask({ type: 'bridge/line', message: callAsk(1, 'hang', {}) });
    await expect.poll(() => started).toBe(1);
    await f.ask({ type: 'bridge/line', message: { line: 'cancel', id: 1, reason: { name: 'AbortError', message: 'Stop' } } });
    expect(JSON.stringify(await first)).toContain('was cancelled; the page was told (toolcancel)');
    await expect.poll(() => cancelled).toEqual(['hang']);
    // The background's Port to this document closes (its service worker stopped) while a call runs: nobody can
    // hear that call's answer any more, so the tool is cancelled rather than left running for no one.
    void f.ask({ type: 'bridge/line', message: callAsk(2, 'hang', {}) });
    await expect.poll(() => started).toBe(2);
    expect(cancelled).toEqual(['hang']);
    port.disconnect();
    await expect.poll(() => cancelled).toEqual(['hang', 'hang']);
    // A fresh line serves the background's next call.
    await f.polyfill.registerTool({ name: 'echo', description: 'Echoes', execute: (input: unknown) => JSON.stringify(input) });
    await expect
      .poll(async () => JSON.stringify(await f.ask({ type: 'bridge/line', message: callAsk(1, 'echo', { b: 2 }) })))
      .toContain('{\\"b\\":2}');
  });

  it('reports no tools when its document goes away', async () => {
    const f = frame();
    await f.polyfill.registerTool({ name: 'gone_soon', description: 'Leaves', execute: () => 'x' });
    f.start();
    f.prove();
    await expect.poll(() => f.reports().length).toBeGreaterThan(0);
    window.dispatchEvent(new Event('pagehide'));
    expect(f.reports().at(-1)?.tools).toEqual([]);
  });
});
