import { describe, expect, it, vi } from 'vitest';
import { createClientRegistry } from './create-client-registry';
import { handleNativeMessage } from './handle-native-message';

const NONCE = '0123456789abcdef';

function setup() {
  const clients = createClientRegistry({ createGuard: () => ({ mustAsk: () => undefined, settle: (_t, _i, output) => output }) });
  const replies: { clientId: string; id: string; result?: unknown; error?: string }[] = [];
  const deps = {
    clients,
    reply: (clientId: string, id: string, result: unknown) => void replies.push({ clientId, id, result }),
    refuse: (clientId: string, id: string, error: string) => void replies.push({ clientId, id, error }),
    listTools: vi.fn(async () => [{ name: 'shop__search', description: 'd', inputSchema: { type: 'object' as const } }]),
    listed: vi.fn(),
    callTool: vi.fn(async () => undefined),
    answerChallenge: vi.fn(),
    clientsChanged: vi.fn(),
  };
  const send = (message: unknown) => handleNativeMessage(message, deps);
  const hello = (clientId = 'c1') => send({ type: 'client/hello', clientId, id: 'h', protocol: 1, client: { name: 'A' }, nonce: NONCE });
  return { deps, replies, send, hello, clients };
}

describe('handleNativeMessage', () => {
  it('drops what is not a message, and the host’s own notices', () => {
    const { send, replies, deps } = setup();
    for (const message of [null, 'x', [], { type: 3 }, { type: 'host/busy', reason: 'other-browser' }, { type: 'host/unpaired' }]) {
      send(message);
    }
    expect(replies).toEqual([]);
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

  it('greets a client, and tells the panels who is connected when one comes or goes', () => {
    const { hello, send, replies, deps, clients } = setup();
    hello();
    expect(replies).toEqual([{ clientId: 'c1', id: 'h', result: { extension: 'webmcp-agent' } }]);
    expect(deps.clientsChanged).toHaveBeenCalledTimes(1);
    send({ type: 'client/gone', clientId: 'nobody' });
    send({ type: 'client/gone', clientId: 7 });
    expect(deps.clientsChanged).toHaveBeenCalledTimes(1);
    send({ type: 'client/gone', clientId: 'c1' });
    expect(clients.size()).toBe(0);
    expect(deps.clientsChanged).toHaveBeenCalledTimes(2);
  });

  it('refuses every request, of a kind it knows or not, until the client said hello; then drops unknown kinds', () => {
    const { send, replies, hello, deps } = setup();
    send({ type: 'tools/list', clientId: 'c1', id: 'r1' });
    send({ type: 'tools/whatever', clientId: 'c1', id: `r2${'x'.repeat(200)}` });
    send({ type: 'tools/list', clientId: 'c1' });
    expect(replies).toEqual([
      { clientId: 'c1', id: 'r1', error: 'Say hello first.' },
      { clientId: 'c1', id: `r2${'x'.repeat(98)}`, error: 'Say hello first.' },
    ]);
    hello();
    send({ type: 'tools/whatever', clientId: 'c1', id: 'r3' });
    expect(replies.map((r) => r.id)).toEqual(['r1', `r2${'x'.repeat(98)}`, 'h']);
    expect(deps.listTools).not.toHaveBeenCalled();
  });

  it('lists, remembering what the client got; calls with its arguments; and cancels a call', async () => {
    const { send, replies, hello, deps, clients } = setup();
    hello();
    send({ type: 'tools/list', clientId: 'c1', id: 'l' });
    await vi.waitFor(() => expect(replies.at(-1)?.id).toBe('l'));
    expect(deps.listed).toHaveBeenCalledWith(await deps.listTools.mock.results[0].value);
    send({ type: 'tools/call', clientId: 'c1', id: 'c', name: 'shop__search', arguments: ['not', 'a', 'record'] });
    expect(deps.callTool).toHaveBeenCalledWith(clients.get('c1'), 'c', 'shop__search', {});
    const controller = new AbortController();
    clients.get('c1')?.calls.set('c', { controller, site: 'https://shop.example', tabId: 1 });
    send({ type: 'tools/cancel', clientId: 'c1', id: 'c' });
    expect(controller.signal.aborted).toBe(true);
  });

  it('says only that the call failed when it throws: an exception’s text could name any tab or site', async () => {
    const { send, replies, hello, deps } = setup();
    hello();
    deps.callTool.mockRejectedValueOnce(new Error('tab 4 on https://bank.example/secret'));
    send({ type: 'tools/call', clientId: 'c1', id: 'c', name: 'x', arguments: {} });
    await vi.waitFor(() => expect(replies.at(-1)?.id).toBe('c'));
    expect(JSON.stringify(replies.at(-1))).not.toContain('bank');
    expect(JSON.stringify(replies.at(-1))).toContain('the call failed in the extension');
  });
});
