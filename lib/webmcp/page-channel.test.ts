// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { trustDeliveredMessages } from '../../tests/fixtures/trusted-port-messages';
import { connectPageChannel, type PageRequest, servePageChannel } from './page-channel';

const win = () => window as unknown as Window;
const PORT_EVENT = 'webmcp-agent:port';
let trust: Awaited<ReturnType<typeof trustDeliveredMessages>>;
beforeAll(async () => {
  trust = await trustDeliveredMessages();
});
afterAll(() => trust.restore());

/** Both halves, the background's key handed to the isolated side first and to the MAIN side last. */
async function connected(handle: (request: PageRequest) => Promise<unknown>) {
  const key = `k-${Math.random()}`;
  const main = servePageChannel(win(), handle);
  const connecting = connectPageChannel(win(), [key]);
  main.prove(key);
  return { channel: (await connecting)!, main, key };
}

/** A port of the page's own making, announced as the bridge's; it records what reaches it and answers lists. */
function pagePort(keys: string[] = []) {
  const { port1, port2 } = new MessageChannel();
  const heard: unknown[] = [];
  port1.onmessage = (event) => {
    heard.push(event.data);
    const request = event.data as PageRequest;
    port1.postMessage({ id: request.id, ok: true, value: 'from the page' });
  };
  for (const key of keys) port1.postMessage({ key });
  window.dispatchEvent(new MessageEvent(PORT_EVENT, { ports: [port2] }));
  return { port1, port2, heard };
}

/** Page script on the window, there before the bridge: takes every port announced on it. */
function grabAnnouncedPorts(): MessagePort[] {
  const grabbed: MessagePort[] = [];
  window.addEventListener(PORT_EVENT, (event) => {
    const port = (event as MessageEvent).ports[0];
    if (port) grabbed.push(port);
  });
  return grabbed;
}

describe('page channel', () => {
  it('answers a request with the MAIN world’s value', async () => {
    const { channel } = await connected(async (request) => (request.op === 'ping' ? 'pong' : undefined));
    expect(await channel.request('ping')).toBe('pong');
  });

  it('carries the MAIN world’s questions to the isolated side, asked before the proof or the answerer, and their answers back', async () => {
    const key = `k-${Math.random()}`;
    const main = servePageChannel(win(), async () => undefined);
    const early = main.ask({ op: 'token', callId: 'call-1' });
    const connecting = connectPageChannel(win(), [key]);
    main.prove(key);
    const channel = (await connecting)!;
    const heard: unknown[] = [];
    channel.onAsk(['token', 'resume'], async (ask) => {
      heard.push(ask);
      if (ask.op === 'resume') throw new DOMException('No such token', 'NotFoundError');
      return 'token-1';
    });
    expect(await early).toBe('token-1');
    const refused = await main.ask({ op: 'resume', token: 'x' }).catch((error: DOMException) => `${error.name}: ${error.message}`);
    expect(refused).toBe('NotFoundError: No such token');
    expect(heard).toEqual([
      { op: 'token', callId: 'call-1' },
      { op: 'resume', token: 'x' },
    ]);
  });

  it.each(HOSTILE_THROWN)('a handler that rejects with %s fails the request at once (it never hangs)', async (_label, make) => {
    const { channel } = await connected(() => Promise.reject(make()));
    const { result } = channel.request('call', { name: 't', input: {} });
    await expect(result).rejects.toBeInstanceOf(Error);
  });

  it('a port the page announced first is refused, keys guessed or not, and never hears a request', async () => {
    const key = `k-${Math.random()}`;
    const main = servePageChannel(win(), async () => 'from the bridge');
    const connecting = connectPageChannel(win(), [key]);
    const early = pagePort(['guess', '']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    main.prove(key);
    const late = pagePort([key.slice(0, -1)]);
    const channel = (await connecting)!;
    expect(await channel.request('list')).toBe('from the bridge');
    expect(early.heard).toEqual([]);
    expect(late.heard).toEqual([]);
  });

  it('a key that page script dispatches on a port, rather than sends through it, proves nothing', async () => {
    const key = `k-${Math.random()}`;
    const main = servePageChannel(win(), async () => 'from the bridge');
    const connecting = connectPageChannel(win(), [key]);
    // A page that somehow has the key, but not the bridge's end of the channel.
    const forger = pagePort();
    trust.forge(forger.port2, { key });
    await new Promise((resolve) => setTimeout(resolve, 20));
    main.prove(key);
    expect(await (await connecting)!.request('list')).toBe('from the bridge');
    expect(forger.heard).toEqual([]);
  });

  it('a page holding the bridge’s announced port can neither answer for the bridge nor hear the requests', async () => {
    const grabbed = grabAnnouncedPorts();
    const heard: unknown[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { channel } = await connected(async (request) => {
      await held;
      return request.op === 'call' ? 'from the bridge' : [];
    });
    const changes: number[] = [];
    channel.onChanged(() => changes.push(1));
    const [port] = grabbed;
    port!.addEventListener('message', (event) => heard.push((event as MessageEvent).data));
    const { id, result } = channel.request('call', { name: 'pay', input: { card: '4111' } });
    // Forged on the very port the isolated side reads, while the real answer is pending.
    trust.forge(port!, { id, ok: true, value: 'forged' });
    trust.forge(port!, { op: 'changed' });
    release();
    expect(await result).toBe('from the bridge');
    expect(changes).toEqual([]);
    expect(JSON.stringify(heard)).not.toContain('4111');
  });

  it('takes a key the isolated side is given after it started waiting', async () => {
    const keys: string[] = [];
    const main = servePageChannel(win(), async () => 'pong');
    const connecting = connectPageChannel(win(), keys);
    keys.push('second');
    main.prove('second');
    expect(await (await connecting)!.request('ping')).toBe('pong');
  });

  it('without a proof in time there is no channel, however many ports the page announced', async () => {
    const connecting = connectPageChannel(win(), ['never-shown'], 100);
    for (let i = 0; i < 40; i++) pagePort(['guess']);
    expect(await connecting).toBeUndefined();
  });
});
