import { describe, expect, it } from 'vitest';
import { ROUTER_PORT_NAME } from '../messaging/router-messages';
import { createRuntimeConnectEvent, type TestRuntimePort } from '../testing/runtime-port-pair';
import { settle } from '../testing/tool-router-fixtures';
import { setUpRouterLines } from './set-up-router-lines';

const EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const OFFSCREEN = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };
/** A content script: the extension's id, but a page's URL and origin, as the browser attests them. */
const CONTENT_SCRIPT = { id: 'ext-id', url: 'https://evil.test/', origin: 'https://evil.test' };
const SNAPSHOT = { tabId: 1, tools: [], page: {}, revision: 1 };

function start(callHostWhenAway = true) {
  const runtime = createRuntimeConnectEvent();
  const asked: unknown[] = [];
  const calls: unknown[] = [];
  const lines = setUpRouterLines(
    { runtime: { onConnect: runtime.onConnect, sendMessage: async (m) => void calls.push(m) } },
    {
      extension: EXTENSION,
      handlers: () => ({
        'router/get-tools': (request) => {
          asked.push(request);
          return SNAPSHOT;
        },
      }),
      callHostWhenAway,
    },
  );
  /** Connects as `sender`; what the Port hears, and whether it was disconnected. */
  const connect = (sender: typeof OFFSCREEN, name = ROUTER_PORT_NAME) => {
    const port: TestRuntimePort = runtime.connect(name, sender);
    const heard: unknown[] = [];
    const state = { port, heard, gone: false };
    port.onMessage.addListener((m) => heard.push(m));
    port.onDisconnect.addListener(() => {
      state.gone = true;
    });
    return state;
  };
  return { lines, connect, asked, calls };
}

describe('setUpRouterLines', () => {
  it('answers the extension’s own pages on the router’s line, and pushes to every open line', async () => {
    const { lines, connect, asked } = start();
    const host = connect(OFFSCREEN);
    const panel = connect({ ...OFFSCREEN, url: 'chrome-extension://ext-id/sidepanel.html' });
    host.port.postMessage({ line: 'ask', id: 1, type: 'router/get-tools', request: { tabId: 1 } });
    await settle();
    expect(asked).toEqual([{ tabId: 1 }]);
    expect(host.heard).toEqual([{ line: 'answer', id: 1, answer: SNAPSHOT }]);
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: SNAPSHOT });
    await settle();
    const push = { line: 'notice', type: 'host/tools-changed', request: { tabId: 1, snapshot: SNAPSHOT } };
    expect(host.heard.at(-1)).toEqual(push);
    expect(panel.heard).toEqual([push]);
  });

  it('cuts off a content script that opens the router’s Port: it can ask nothing and hears nothing', async () => {
    const { lines, connect, asked } = start();
    const evil = connect(CONTENT_SCRIPT);
    await settle();
    expect(evil.gone).toBe(true);
    expect(() => evil.port.postMessage({ line: 'ask', id: 1, type: 'router/get-tools', request: { tabId: 1 } })).toThrow();
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: SNAPSHOT });
    await settle();
    expect(asked).toEqual([]);
    expect(evil.heard).toEqual([]);
  });

  it('leaves a Port of another name to its own listener', async () => {
    const { connect } = start();
    const other = connect(CONTENT_SCRIPT, 'webmcp-agent-document');
    await settle();
    expect(other.gone).toBe(false);
  });

  it('Chrome: holds news that finds no line (the latest per tab) and calls the host, whose new line gets it', async () => {
    const { lines, connect, calls } = start();
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: { ...SNAPSHOT, revision: 1 } });
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: { ...SNAPSHOT, revision: 2 } });
    await settle();
    expect(calls).toEqual([{ type: 'host/connect-router' }]);
    const host = connect(OFFSCREEN);
    await settle();
    expect(host.heard).toEqual([
      { line: 'notice', type: 'host/tools-changed', request: { tabId: 1, snapshot: { ...SNAPSHOT, revision: 2 } } },
    ]);
  });

  it('Firefox: the host is this page, so news that finds no line is not held and no one is called', async () => {
    const { lines, connect, calls } = start(false);
    lines.notifyHost({ type: 'host/tools-changed', tabId: 1, snapshot: SNAPSHOT });
    const page = connect(OFFSCREEN);
    await settle();
    expect(calls).toEqual([]);
    expect(page.heard).toEqual([]);
  });
});
