import { describe, expect, it, vi } from 'vitest';
import type { BridgeCallResult, NativeOutbound } from '../messaging/mcp-bridge-messages';
import type { SharedCallContext } from './call-shared-tool';
import { createClientRegistry } from './create-client-registry';
import { createNativeLines } from './create-native-lines';
import { handleNativeMessage } from './handle-native-message';
import { nativeClientHandlers } from './native-client-handlers';

const NONCE = '0123456789abcdef';

/** The native host's messages through the real lines and handlers; what they post back is gathered. */
function setup() {
  const clients = createClientRegistry({ createGuard: () => ({ mustAsk: () => undefined, settle: (_t, _i, output) => output }) });
  const posted: NativeOutbound[] = [];
  const replies = () =>
    posted
      .filter((m) => m.type === 'reply')
      .map((m) => ({ clientId: m.clientId, id: m.id, ...('error' in m ? { error: m.error.message } : { result: m.result }) }));
  const contexts: SharedCallContext[] = [];
  const deps = {
    listTools: vi.fn(async () => [{ name: 'shop__search', description: 'd', inputSchema: { type: 'object' as const } }]),
    listed: vi.fn(),
    callTool: vi.fn(async (_client: unknown, _name: string, _input: unknown, context: SharedCallContext): Promise<BridgeCallResult> => {
      contexts.push(context);
      return { content: [{ type: 'text', text: 'ok' }] };
    }),
    answerChallenge: vi.fn(),
    clientsChanged: vi.fn(),
  };
  const lines = createNativeLines({
    post: (m) => void posted.push(m),
    handlers: (clientId) => nativeClientHandlers(clientId, { clients, ...deps }),
  });
  const send = (message: unknown) => handleNativeMessage(message, { clients, lines, ...deps });
  const hello = (clientId = 'c1') => send({ type: 'client/hello', clientId, id: 'h', protocol: 1, client: { name: 'A' }, nonce: NONCE });
  return { deps, replies, posted, send, hello, clients, contexts, lines };
}

describe('handleNativeMessage', () => {
  it('drops what is not a message, and the host’s own notices', async () => {
    const { send, posted, deps } = setup();
    for (const message of [null, 'x', [], { type: 3 }, { type: 'host/busy', reason: 'other-browser' }, { type: 'host/unpaired' }]) {
      send(message);
    }
    await new Promise((r) => setTimeout(r, 0));
    expect(posted).toEqual([]);
    expect(deps.clientsChanged).not.toHaveBeenCalled();
  });

  it('answers a challenge only with a nonce of 16 to 64 hex digits', () => {
    const { send, deps } = setup();
    send({ type: 'host/challenge', nonce: 'xyz' });
    send({ type: 'host/challenge', nonce: 'a'.repeat(65) });
    send({ type: 'host/challenge' });
    expect(deps.answerChallenge).not.toHaveBeenCalled();
    send({ type: 'host/challenge', nonce: NONCE });
    expect(deps.answerChallenge).toHaveBeenCalledWith(NONCE);
  });

  it('greets a client, and tells the panels who is connected when one comes or goes', async () => {
    const { hello, send, replies, deps, clients } = setup();
    hello();
    await vi.waitFor(() => expect(replies()).toEqual([{ clientId: 'c1', id: 'h', result: { extension: 'webmcp-agent' } }]));
    expect(deps.clientsChanged).toHaveBeenCalledTimes(1);
    send({ type: 'client/gone', clientId: 'nobody' });
    send({ type: 'client/gone', clientId: 7 });
    expect(deps.clientsChanged).toHaveBeenCalledTimes(1);
    send({ type: 'client/gone', clientId: 'c1' });
    expect(clients.size()).toBe(0);
    expect(deps.clientsChanged).toHaveBeenCalledTimes(2);
  });

  it('refuses a request until the client said hello, and drops kinds no line asks and ids longer than 100 characters', async () => {
    const { send, replies, hello, deps } = setup();
    send({ type: 'tools/list', clientId: 'c1', id: 'r1' });
    send({ type: 'tools/whatever', clientId: 'c1', id: 'r2' });
    send({ type: 'tools/list', clientId: 'c1', id: 'x'.repeat(101) });
    send({ type: 'tools/list', clientId: 'c1' });
    await vi.waitFor(() => expect(replies()).toEqual([{ clientId: 'c1', id: 'r1', error: 'Say hello first.' }]));
    hello();
    send({ type: 'tools/whatever', clientId: 'c1', id: 'r3' });
    await vi.waitFor(() => expect(replies().map((r) => r.id)).toEqual(['r1', 'h']));
    expect(deps.listTools).not.toHaveBeenCalled();
  });

  it('lists, remembering what the client got; calls with its arguments; and cancels a call as an aborted signal', async () => {
    const { send, replies, hello, deps, clients, contexts } = setup();
    hello();
    send({ type: 'tools/list', clientId: 'c1', id: 'l' });
    await vi.waitFor(() => expect(replies().at(-1)?.id).toBe('l'));
    expect(deps.listed).toHaveBeenCalledWith(await deps.listTools.mock.results[0].value);
    deps.callTool.mockImplementationOnce(
      (_client, _name, _input, context) =>
        new Promise((resolve) => {
          contexts.push(context);
          context.waiting('waiting for the person');
          context.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'cancelled' }], isError: true }));
        }),
    );
    send({ type: 'tools/call', clientId: 'c1', id: 'c', name: 'shop__search', arguments: ['not', 'a', 'record'] });
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    expect(deps.callTool).toHaveBeenCalledWith(clients.get('c1'), 'shop__search', {}, expect.anything());
    send({ type: 'tools/cancel', clientId: 'c1', id: 'c' });
    await vi.waitFor(() => expect(contexts[0].signal.aborted).toBe(true));
    expect(contexts[0].signal.reason).toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() =>
      expect(replies().at(-1)).toEqual({
        clientId: 'c1',
        id: 'c',
        result: { content: [{ type: 'text', text: 'cancelled' }], isError: true },
      }),
    );
  });

  it('says only that the call failed when it throws: an exception’s text could name any tab or site', async () => {
    const { send, replies, hello, deps } = setup();
    hello();
    deps.callTool.mockRejectedValueOnce(new Error('tab 4 on https://bank.example/secret'));
    send({ type: 'tools/call', clientId: 'c1', id: 'c', name: 'x', arguments: {} });
    await vi.waitFor(() => expect(replies().at(-1)?.id).toBe('c'));
    expect(JSON.stringify(replies().at(-1))).not.toContain('bank');
    expect(JSON.stringify(replies().at(-1))).toContain('the call failed in the extension');
  });
});
