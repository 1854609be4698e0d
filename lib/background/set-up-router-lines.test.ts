import { describe, expect, it } from 'vitest';
import { ROUTER_PORT_NAME } from '../messaging/router-messages';
import { createRuntimeMessageBus } from '../testing/runtime-message-bus';
import { createRuntimeConnectEvent, type TestRuntimePort } from '../testing/runtime-port-pair';
import { settle } from '../testing/tool-router-fixtures';
import { setUpRouterLines } from './set-up-router-lines';

const EXTENSION = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const SERVICE_WORKER = { id: 'ext-id', url: 'chrome-extension://ext-id/background.js', origin: 'chrome-extension://ext-id' };
const OFFSCREEN = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };
/** A content script: the extension's id, but a page's URL and origin, as the browser attests them. */
const CONTENT_SCRIPT = { id: 'ext-id', url: 'https://evil.test/', origin: 'https://evil.test', tab: { id: 1 }, frameId: 0 };
const SNAPSHOT = { tabId: 1, tools: [], page: {}, revision: 1 };
const changed = (revision: number) => ({ type: 'host/tools-changed' as const, tabId: 1, snapshot: { ...SNAPSHOT, revision } });

/** The background's end, with the test as the host: `ports` are the Ports the background opened to it. */
function start(options: { hostDocumentUp?: Promise<unknown> } = {}) {
  const host = createRuntimeConnectEvent();
  const ports: (TestRuntimePort & { heard: unknown[] })[] = [];
  host.onConnect.addListener((port) => {
    const taken = Object.assign(port, { heard: [] as unknown[] });
    port.onMessage.addListener((m) => taken.heard.push(m));
    ports.push(taken);
  });
  const bus = createRuntimeMessageBus();
  const asked: unknown[] = [];
  const lines = setUpRouterLines(
    { runtime: { connect: (info) => host.connect(info.name, SERVICE_WORKER), onMessage: bus.onMessage } },
    {
      extension: EXTENSION,
      handlers: () => ({
        'router/get-tools': (request) => {
          asked.push(request);
          return SNAPSHOT;
        },
      }),
      hostDocumentUp: () => options.hostDocumentUp ?? new Promise(() => {}),
    },
  );
  return { lines, ports, bus, asked };
}

describe('setUpRouterLines (Chrome)', () => {
  it('opens the router’s Port to the host once its document started, answers its asks, and pushes once it took the line', async () => {
    const { lines, ports, asked } = start({ hostDocumentUp: Promise.resolve() });
    await settle();
    expect(ports.map((p) => [p.name, p.sender])).toEqual([[ROUTER_PORT_NAME, SERVICE_WORKER]]);
    const [host] = ports;
    host.postMessage({ line: 'ask', id: 1, type: 'router/get-tools', request: { tabId: 1 } });
    await settle();
    expect(asked).toEqual([{ tabId: 1 }]);
    expect(host.heard).toEqual([{ line: 'answer', id: 1, answer: SNAPSHOT }]);
    // Before the host says it took the line, news is held; then the latest per tab goes first.
    lines.notifyHost(changed(1));
    lines.notifyHost(changed(2));
    await settle();
    expect(host.heard).toHaveLength(1);
    host.postMessage({ line: 'notice', type: 'router/ready', request: {} });
    await settle();
    lines.notifyHost(changed(3));
    await settle();
    expect(host.heard.slice(1)).toEqual([
      { line: 'notice', type: 'host/tools-changed', request: { tabId: 1, snapshot: changed(2).snapshot } },
      { line: 'notice', type: 'host/tools-changed', request: { tabId: 1, snapshot: changed(3).snapshot } },
    ]);
  });

  it('opens a line when the extension’s own page asks (router/connect), never for a content script', async () => {
    const { ports, bus } = start();
    expect(bus.send({ type: 'router/connect' }, CONTENT_SCRIPT).kept).toBe(false);
    await settle();
    expect(ports).toEqual([]);
    bus.send({ type: 'router/connect' }, OFFSCREEN);
    bus.send({ type: 'router/connect' }, OFFSCREEN);
    await settle();
    // One line at a time.
    expect(ports).toHaveLength(1);
  });

  it('opens one more line when the host asked while the first was opening and it closed untaken', async () => {
    const { ports, bus } = start({ hostDocumentUp: Promise.resolve() });
    await settle();
    expect(ports).toHaveLength(1);
    // The host's document was up but not yet listening when the first opened: it asks now, and the first closes.
    bus.send({ type: 'router/connect' }, OFFSCREEN);
    ports[0].disconnect();
    await settle();
    expect(ports).toHaveLength(2);
    // Nobody asked since: a second line closing untaken opens no third.
    ports[1].disconnect();
    await settle();
    expect(ports).toHaveLength(2);
  });

  it('with news and no line, opens one; a host that is not there leaves the news held for the next', async () => {
    const { lines, ports, bus } = start();
    lines.notifyHost(changed(1));
    await settle();
    expect(ports).toHaveLength(1);
    // The host closes its end before it took the line: the news stays held.
    ports[0].disconnect();
    await settle();
    bus.send({ type: 'router/connect' }, OFFSCREEN);
    await settle();
    expect(ports).toHaveLength(2);
    ports[1].postMessage({ line: 'notice', type: 'router/ready', request: {} });
    await settle();
    expect(ports[1].heard).toEqual([{ line: 'notice', type: 'host/tools-changed', request: { tabId: 1, snapshot: changed(1).snapshot } }]);
  });
});
