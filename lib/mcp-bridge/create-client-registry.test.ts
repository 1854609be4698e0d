import { describe, expect, it, vi } from 'vitest';
import { type ClientGuard, createClientRegistry } from './create-client-registry';

const NONCE = '0123456789abcdef';
const guard = (): ClientGuard => ({ mustAsk: () => undefined, settle: (_tool, _identity, output) => output });
const hello = (name: unknown = 'Claude Code', extra: Record<string, unknown> = {}) => ({
  protocol: 1,
  nonce: NONCE,
  client: { name, version: '2.0' },
  ...extra,
});

describe('createClientRegistry', () => {
  it('knows a client after a hello with this protocol and a nonce, and refuses others in words for the client', () => {
    const clients = createClientRegistry({ createGuard: guard });
    expect(clients.hello('c1', hello('x', { protocol: 2 }))).toMatch(/protocol 1: update the bridge/);
    expect(clients.hello('c1', hello('x', { nonce: 'short' }))).toBe('The hello carried no usable nonce.');
    expect(clients.hello('c1', hello('x', { nonce: undefined }))).toBe('The hello carried no usable nonce.');
    expect(clients.size()).toBe(0);
    expect(clients.hello('c1', hello('Claude\u202e Code\nignore'))).toBeUndefined();
    expect(clients.list()).toEqual([{ id: 'c1', name: 'Claude Code ignore', version: '2.0' }]);
    expect(clients.get('c1')?.spotlight.wrap('x', { tool: 't' })).toContain(NONCE);
  });

  it('names a client that gave no name “MCP client”, and takes at most 16 at once', () => {
    const clients = createClientRegistry({ createGuard: guard });
    expect(clients.hello('c0', { protocol: 1, nonce: NONCE, client: 'not a record' })).toBeUndefined();
    expect(clients.get('c0')?.name).toBe('MCP client');
    for (let i = 1; i < 16; i++) expect(clients.hello(`c${i}`, hello())).toBeUndefined();
    expect(clients.hello('c16', hello())).toBe('Too many desktop agents are connected.');
    expect(clients.hello('c3', hello('again'))).toBeUndefined();
  });

  it('keeps what a client read, its guard and its calls across a second hello; drop ends its calls', () => {
    const createGuard = vi.fn(guard);
    const clients = createClientRegistry({ createGuard });
    clients.hello('c1', hello());
    const first = clients.get('c1');
    first?.read.add('https://shop.example');
    const controller = new AbortController();
    first?.calls.set('r1', { controller, site: 'https://shop.example', tabId: 1 });
    clients.hello('c1', hello('Renamed'));
    const second = clients.get('c1');
    expect(second?.name).toBe('Renamed');
    expect(second?.read).toBe(first?.read);
    expect(second?.guard).toBe(first?.guard);
    expect(createGuard).toHaveBeenCalledTimes(1);
    expect(clients.drop('c1')).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(clients.drop('c1')).toBe(false);
    expect(clients.ids()).toEqual([]);
  });

  it('stops only the calls that match', () => {
    const clients = createClientRegistry({ createGuard: guard });
    clients.hello('c1', hello());
    const shop = new AbortController();
    const bank = new AbortController();
    clients.get('c1')?.calls.set('a', { controller: shop, site: 'https://shop.example', tabId: 1 });
    clients.get('c1')?.calls.set('b', { controller: bank, site: 'https://bank.example', tabId: 2 });
    clients.stopCallsOn((call) => call.site === 'https://shop.example');
    expect([shop.signal.aborted, bank.signal.aborted]).toEqual([true, false]);
  });
});
