import { describe, expect, it, vi } from 'vitest';
import type { ToolOutput } from '../agent/types';
import type { ClientCallRequest } from '../messaging/client-call-request';
import type { BridgeCallResult } from '../messaging/mcp-bridge-messages';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { callSharedTool } from './call-shared-tool';
import { LEFT_SHARED_SITE_ERROR, NOT_SHARED_ERROR } from './client-refusals';
import { createClientRegistry } from './create-client-registry';
import type { SharedTool } from './shared-tool';
import { createSharingChoices } from './sharing-choices';

const SHOP = 'https://shop.example';
const NONCE = '0123456789abcdef';
const search: SharedTool = {
  tabId: 1,
  site: SHOP,
  tool: 'search',
  entry: { name: 'search', originalName: 'search', description: 'Finds.', inputSchema: {}, origin: SHOP, frameId: 0 },
};

async function setup(run: (request: ClientCallRequest) => Promise<{ output: ToolOutput; ran: boolean }>, watched = false) {
  const choices = createSharingChoices(createMemoryStorageArea({ 'mcpBridge.enabled': true, 'mcpBridge.sites': [SHOP] }));
  await choices.load();
  const mustAsk = vi.fn(() => undefined);
  const clients = createClientRegistry({ createGuard: () => ({ mustAsk, settle: (_t, _i, output) => output }) });
  clients.hello('c1', { protocol: 1, nonce: NONCE, client: { name: 'Agent' } });
  const client = clients.get('c1');
  if (!client) throw new Error('no client');
  let url = `${SHOP}/`;
  const waits: string[] = [];
  let last: BridgeCallResult | undefined;
  const notified: string[] = [];
  const cleared: string[] = [];
  const deps = {
    listing: async () => new Map([['shop_example__search', search]]),
    session: async () => ({ runForClient: (_call: unknown, request: ClientCallRequest) => run(request) }),
    browser: {
      tabs: async () => [{ tabId: 1, url }],
      notify: async (n: { title: string; message: string }) => notified.push(`${n.title} | ${n.message}`) > 0,
      clearNotification: async (id: string) => cleared.push(id) > 0,
    },
    choices,
    watched: () => watched,
    generateId: () => 'x',
  };
  const call = async (name = 'shop_example__search', signal = new AbortController().signal) => {
    last = await callSharedTool(deps, client, name, { q: 'a' }, { signal, waiting: (message) => void waits.push(message) });
  };
  const result = () => last as { content: { type: string; text: string }[]; isError?: boolean };
  return { call, result, waits, notified, cleared, client, mustAsk, moveTo: (next: string) => (url = next) };
}

const ok: ToolOutput = { content: [{ type: 'text', text: 'found it' }] };

describe('callSharedTool', () => {
  it('refuses a name not listed with the one refusal, running nothing', async () => {
    const run = vi.fn();
    const { call, result } = await setup(run);
    await call('bank_example__balance');
    expect(run).not.toHaveBeenCalled();
    expect(result()).toEqual({ content: [{ type: 'text', text: NOT_SHARED_ERROR }], isError: true });
  });

  it('runs in the client’s name, spotlights the result, remembers the origin read and clears its notification', async () => {
    const { call, result, client, cleared } = await setup(async (request) => {
      expect(request).toMatchObject({ client: 'Agent', site: SHOP, shown: { frameId: 0, origin: SHOP, originalName: 'search' } });
      return { output: ok, ran: true };
    });
    await call();
    expect(result().content[0].text).toContain(NONCE);
    expect(result().content[0].text).toContain('found it');
    expect([...client.read]).toEqual([SHOP]);
    expect(client.calls.size).toBe(0);
    expect(cleared).toEqual(['mcp-x']);
  });

  it('tells the client it waits, and notifies the person only when no panel shows the tab', async () => {
    const asking = async (request: ClientCallRequest) => {
      request.onAsking?.();
      return { output: ok, ran: true };
    };
    const unwatched = await setup(asking);
    await unwatched.call();
    expect(unwatched.waits).toEqual(['Waiting for the person to answer in the browser (search on shop.example).']);
    expect(unwatched.notified).toEqual(['Agent is waiting for you | Allow search on shop.example?']);
    const watched = await setup(asking, true);
    await watched.call();
    expect(watched.notified).toEqual([]);
  });

  it('keeps the result in the browser when the call took the tab off the shared site', async () => {
    const state = await setup(async () => {
      state.moveTo('https://elsewhere.example/');
      return { output: ok, ran: true };
    });
    await state.call();
    expect(state.result().content[0].text).toBe(LEFT_SHARED_SITE_ERROR);
    expect(state.client.read.size).toBe(0);
  });

  it('ends the page call with the line’s reason when its signal aborts, and when the person stops the site', async () => {
    const reasons: unknown[] = [];
    const waiting = async (request: ClientCallRequest) =>
      new Promise<{ output: ToolOutput; ran: boolean }>((resolve) => {
        request.signal?.addEventListener('abort', () => {
          reasons.push(request.signal?.reason);
          resolve({ output: { content: [{ type: 'text', text: 'Error [cancelled]: stopped.' }], isError: true }, ran: false });
        });
      });
    const state = await setup(waiting);
    const line = new AbortController();
    const call = state.call('shop_example__search', line.signal);
    await vi.waitFor(() => expect(state.client.calls.size).toBe(1));
    line.abort(new Error('the line closed'));
    await call;
    expect(reasons).toEqual([new Error('the line closed')]);
    expect(state.client.calls.size).toBe(0);
  });

  it('passes on a Deny or bad arguments, and answers any other refusal or a changed tool with the one refusal', async () => {
    const refusal = (text: string, ran: boolean) => async () => ({
      output: { content: [{ type: 'text' as const, text }], isError: true },
      ran,
    });
    const denied = await setup(refusal('Error [cancelled]: The person declined.', false));
    await denied.call();
    expect(denied.result().content[0].text).toBe('Error [cancelled]: The person declined.');
    const moved = await setup(refusal('Error [navigated]: the tab is on bank.example now.', false));
    await moved.call();
    expect(moved.result().content[0].text).toBe(NOT_SHARED_ERROR);
    const changed = await setup(refusal('Error [tool_changed]: another tool now.', true));
    await changed.call();
    expect(changed.result().content[0].text).toBe(NOT_SHARED_ERROR);
  });
});
