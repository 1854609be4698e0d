// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { connectPageChannel, type PageRequest, servePageChannel } from './page-channel';

const win = () => window as unknown as Window;

describe('page channel', () => {
  it('answers a request with the MAIN world’s value', async () => {
    servePageChannel(win(), async (request: PageRequest) => (request.op === 'ping' ? 'pong' : undefined));
    const channel = await connectPageChannel(win(), `n${Math.random()}`);
    expect(await channel!.request('ping')).toBe('pong');
  });

  it.each(HOSTILE_THROWN)('a handler that rejects with %s fails the request at once (it never hangs)', async (_label, make) => {
    servePageChannel(win(), () => Promise.reject(make()));
    const channel = await connectPageChannel(win(), `n${Math.random()}`);
    const { result } = channel!.request('call', { name: 't', input: {} });
    await expect(result).rejects.toBeInstanceOf(Error);
  });
});
