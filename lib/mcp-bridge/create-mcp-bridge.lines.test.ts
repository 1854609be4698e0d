/**
 * The extension's end of the desktop bridge's line (issue 48 item 1): a desktop agent's asks reach the extension over
 * the native Port with their ids, a cancel reaches the running call as an aborted signal, and when the line drops (the
 * native Port, or the agent's own connection) the call still running fails with the line's one error. The desktop end
 * here is the bridge package's own: a request line speaking its wire (bridge/src/bridge-socket-transport.ts), through
 * a test double of the native Port and host (lib/testing/memory-native-host.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { fromBridgeWire, toBridgeWire } from '../../bridge/src/bridge-socket-transport';
import { createRequestLine, type LineTransport } from '../../bridge/src/create-request-line';
import type { ServerAsks } from '../../bridge/src/protocol';
import type { ClientCallRequest } from '../messaging/client-call-request';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createMemoryNativeHost, type MemoryNativeConnection } from '../testing/memory-native-host';
import { createRunGuard } from '../host/create-run-guard';
import { createMcpBridge } from './create-mcp-bridge';

const SHOP = 'https://shop.example';
const NONCE = '0123456789abcdef';

/** The desktop end of one connection: the bridge package's line over its wire. */
function desktopTransport(connection: MemoryNativeConnection): LineTransport {
  return {
    send: (message) => {
      const wire = toBridgeWire(message);
      if (wire) connection.send(wire as unknown as Record<string, unknown>);
    },
    onMessage: (listener) =>
      connection.onMessage((wire) => {
        const message = fromBridgeWire(wire);
        if (message) listener(message);
      }),
    onClose: (listener) => connection.onClose(() => listener('the host ended')),
    close: () => connection.close(),
  };
}

/** A bridge sharing shop.example's tab, whose tool `pay` waits for the person until its signal aborts. */
async function stand() {
  const host = createMemoryNativeHost([{ tabId: 1, url: `${SHOP}/`, title: 'Shop' }]);
  const requests: ClientCallRequest[] = [];
  const bridge = createMcpBridge({
    browser: host.browser,
    tools: {
      getTools: async (tabId) => ({
        tabId,
        page: { url: `${SHOP}/` },
        tools: [{ name: 'pay', originalName: 'pay', description: 'Pays.', inputSchema: { type: 'object' }, origin: SHOP, frameId: 0 }],
      }),
      subscribe: () => () => undefined,
    },
    session: async () => ({
      runForClient: (_call, request) =>
        new Promise((resolve) => {
          requests.push(request);
          request.onAsking?.();
          request.signal?.addEventListener('abort', () =>
            resolve({ output: { content: [{ type: 'text', text: 'Error [cancelled]: stopped.' }], isError: true }, ran: false }),
          );
        }),
    }),
    createGuard: () => createRunGuard({ site: undefined, agent: undefined, stop: () => undefined }),
    storage: createMemoryStorageArea({ 'mcpBridge.enabled': true, 'mcpBridge.sites': [SHOP] }),
    onConnect: { addListener: () => undefined },
    extension: { id: 'ext-id', origin: 'chrome-extension://ext-id/' },
    settleMs: 5,
  });
  await bridge.start();
  let ids = 0;
  const connection = host.connect('c1');
  const desktop = createRequestLine<ServerAsks>({ transport: desktopTransport(connection), nextId: () => `ask-${++ids}` });
  await desktop.ask('client/hello', { protocol: 1, client: { name: 'Agent' }, nonce: NONCE });
  return { host, desktop, connection, requests };
}

describe('the desktop bridge’s line, at the extension’s end', () => {
  it('a cancel reaches the running call as an aborted signal, and the ask ends with the cancel’s reason', async () => {
    const { desktop, requests } = await stand();
    const controller = new AbortController();
    const waits: string[] = [];
    const call = desktop.ask(
      'tools/call',
      { name: 'shop_example__pay', arguments: {} },
      { signal: controller.signal, onUpdate: (m) => waits.push(m) },
    );
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    // The person's wait crosses as the ask's update.
    await vi.waitFor(() => expect(waits).toEqual([expect.stringMatching(/^Waiting for the person to answer in the browser/)]));
    controller.abort(new Error('the agent gave up'));
    await expect(call).rejects.toThrow('the agent gave up');
    await vi.waitFor(() => expect(requests[0].signal?.aborted).toBe(true));
  });

  it('a native Port that drops fails the running call with the line’s one error, and the desktop’s pending ask', async () => {
    const { host, desktop, requests } = await stand();
    const call = desktop.ask('tools/call', { name: 'shop_example__pay', arguments: {} });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    host.dropPort('The bridge stopped (Native host has exited.).');
    await expect(call).rejects.toMatchObject({ name: 'LineClosedError', message: 'The line closed: the host ended' });
    await vi.waitFor(() => expect(requests[0].signal?.aborted).toBe(true));
    expect(requests[0].signal?.reason).toMatchObject({
      name: 'LineClosedError',
      message: 'The native Port to the desktop bridge closed: The bridge stopped (Native host has exited.).',
    });
  });

  it('an agent’s connection that closes fails its running call with the line’s one error', async () => {
    const { connection, requests, desktop } = await stand();
    void desktop.ask('tools/call', { name: 'shop_example__pay', arguments: {} }).catch(() => undefined);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    connection.close();
    await vi.waitFor(() => expect(requests[0].signal?.aborted).toBe(true));
    expect(requests[0].signal?.reason).toMatchObject({ name: 'LineClosedError', message: 'The desktop agent’s connection closed.' });
  });
});
