// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { trustDeliveredMessages } from '../../tests/fixtures/trusted-port-messages';
import { PolyfillModelContext } from '../page-world/install-model-context-polyfill';
import { servePageTools } from '../page-world/serve-page-tools';
import { connectPageChannel, type PageRequest, servePageChannel } from './page-channel';

const win = () => window as unknown as Window;
const PORT_EVENT = 'webmcp-agent:port';
let trust: Awaited<ReturnType<typeof trustDeliveredMessages>>;
beforeAll(async () => {
  trust = await trustDeliveredMessages();
});
afterAll(() => trust.restore());

/** Both halves, the background's key handed to the isolated side first and to the MAIN side last. */
async function connected(handle: (request: PageRequest, signal: AbortSignal) => Promise<unknown>) {
  const key = `k-${Math.random()}`;
  const main = servePageChannel(win(), handle);
  const connecting = connectPageChannel(win(), [key]);
  main.prove(key);
  return { channel: (await connecting)!, main, key };
}

/** A port of the page's own making, announced as the bridge's; it records what reaches it and answers every ask. */
function pagePort(keys: string[] = []) {
  const { port1, port2 } = new MessageChannel();
  const heard: unknown[] = [];
  port1.onmessage = (event) => {
    heard.push(event.data);
    const { id } = event.data as { id: unknown };
    port1.postMessage({ line: 'answer', id, answer: 'from the page' });
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

  it('an answer the port cannot carry fails its request, and the line stays open', async () => {
    const { channel } = await connected(async (request) => (request.op === 'list' ? [() => 'a function'] : 'pong'));
    expect(await channel.request('list').catch((error: Error) => error.name)).toBe('DataCloneError');
    expect(await channel.request('ping')).toBe('pong');
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
    // Forged on the very port the isolated side reads, while the real answer is pending: answers under the ids a
    // line would count (the line's own are not guessable), a notice, a cancel and a close.
    for (const guess of [id, 1, 2, 3]) trust.forge(port!, { line: 'answer', id: guess, answer: 'forged' });
    trust.forge(port!, { line: 'notice', type: 'isolated/changed', request: {} });
    trust.forge(port!, { line: 'cancel', id, reason: { name: 'AbortError', message: 'forged' } });
    trust.forge(port!, null, 'close');
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

  it('a pending list and call fail with one clear error when the page’s document goes, and the page’s handlers stop', async () => {
    const signals: AbortSignal[] = [];
    const { channel, main } = await connected((_request, signal) => {
      signals.push(signal);
      return new Promise(() => {});
    });
    const list = channel.request('list');
    const { result: call } = channel.request('call', { name: 'pay', input: {} });
    // The MAIN world's own question, which nothing answers yet.
    const asked = main.ask({ op: 'token', callId: 'call-1' });
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    trust.deliver(window, 'pagehide', { persisted: false });
    const gone = "LineClosedError: The channel to the page's world closed: its document went away.";
    expect(await list.catch(String)).toBe(gone);
    expect(await call.catch(String)).toBe(gone);
    expect(await asked.catch(String)).toBe(gone);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    // And later requests fail at once.
    expect(await channel.request('ping').catch(String)).toBe(gone);
  });

  it('a pagehide into the back/forward cache, or one that page script dispatched, keeps the line', async () => {
    const { channel } = await connected(async () => 'pong');
    trust.deliver(window, 'pagehide', { persisted: true });
    window.dispatchEvent(new Event('pagehide'));
    expect(await channel.request('ping')).toBe('pong');
  });

  it('a cancel reaches the page’s tool as an aborted signal, and the polyfill fires toolcancel', async () => {
    const polyfill = new PolyfillModelContext(win() as Window & typeof globalThis);
    const reasons: unknown[] = [];
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    await polyfill.registerTool({
      name: 'hang',
      description: 'Never ends by itself',
      execute: (_input: unknown, client: { signal: AbortSignal }) => {
        client.signal.addEventListener('abort', () => reasons.push(client.signal.reason));
        started();
        return new Promise(() => {});
      },
    });
    const cancelled = new Promise<Event>((resolve) => polyfill.addEventListener('toolcancel', resolve, { once: true }));
    const key = `k-${Math.random()}`;
    const { prove } = servePageTools(win(), { polyfill });
    const connecting = connectPageChannel(win(), [key]);
    prove(key);
    const channel = (await connecting)!;
    const { id, result } = channel.request('call', { name: 'hang', input: {} });
    await running;
    channel.cancel(id);
    expect(await result.catch(String)).toBe('AbortError: The call was cancelled');
    expect(((await cancelled) as Event & { toolName?: string }).toolName).toBe('hang');
    // The polyfill aborts the tool's signal with its own AbortError, as native does.
    expect(reasons.map((reason) => (reason as DOMException).name)).toEqual(['AbortError']);
  });

  it('attack, before the key: line messages the page sends or dispatches on announced ports are not read', async () => {
    const key = `k-${Math.random()}`;
    const forgeries = [
      { line: 'ask', id: 1, type: 'isolated/token', request: { callId: 'forged' } },
      { line: 'notice', type: 'isolated/changed', request: {} },
      { line: 'answer', id: 1, answer: 'forged' },
    ];
    // Page script there before the bridge: on the bridge's own port, as it is announced, before its key arrives.
    window.addEventListener(
      PORT_EVENT,
      (event) => {
        const port = (event as MessageEvent).ports[0]!;
        for (const forged of [...forgeries, { key }, ...forgeries]) trust.forge(port, forged);
      },
      { once: true },
    );
    const main = servePageChannel(win(), async () => 'from the bridge');
    const connecting = connectPageChannel(win(), [key]);
    // And on a port of its own, delivered, around a guessed key; its last message shows all of them arrived.
    const own = new MessageChannel();
    const arrived = new Promise((resolve) => own.port2.addEventListener('message', (event) => event.data === 'last' && resolve(1)));
    for (const sent of [...forgeries, { key: 'guess' }, ...forgeries, 'last']) own.port1.postMessage(sent);
    window.dispatchEvent(new MessageEvent(PORT_EVENT, { ports: [own.port2] }));
    await arrived;
    main.prove(key);
    const channel = (await connecting)!;
    const taken: unknown[] = [];
    // A forged ask taken before its answerer was set would wait for it, and reach it now.
    channel.onAsk(['token'], async (ask) => taken.push(ask));
    channel.onChanged(() => taken.push('changed'));
    expect(await channel.request('list')).toBe('from the bridge');
    expect(taken).toEqual([]);
  });

  it('attack, after the key: what the page sends through the bridge’s port reaches only its own world', async () => {
    const grabbed = grabAnnouncedPorts();
    const signals: AbortSignal[] = [];
    const { channel, main } = await connected((request, signal) => {
      if (request.op !== 'call') return Promise.resolve('the page’s own list');
      signals.push(signal);
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('cancelled'), { once: true }));
    });
    const taken: unknown[] = [];
    channel.onAsk(['token'], async (ask) => {
      taken.push(ask);
      return 'token-1';
    });
    const [port] = grabbed;
    const heard: unknown[] = [];
    const answered = new Promise((resolve) =>
      port!.addEventListener('message', (event) => {
        heard.push((event as MessageEvent).data);
        if ((event as MessageEvent).data?.id === 'mine') resolve(1);
      }),
    );
    const { id, result } = channel.request('call', { name: 'pay', input: {} });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    // Cancels under every id the page might guess (the line's are not guessable), and asks of the isolated side
    // posted through the MAIN end, which answers none of them.
    for (const guess of [id, 0, 1, 2, 3, String(id)]) {
      port!.postMessage({ line: 'cancel', id: guess, reason: { name: 'AbortError', message: 'forged' } });
    }
    port!.postMessage({ line: 'ask', id: 'token', type: 'isolated/token', request: { callId: 'forged' } });
    // A question the page may ask: about its own tools, answered by its own world.
    port!.postMessage({ line: 'ask', id: 'mine', type: 'main/list', request: {} });
    await answered;
    expect(heard).toContainEqual({ line: 'answer', id: 'mine', answer: 'the page’s own list' });
    expect(heard).toContainEqual({ line: 'error', id: 'token', error: { name: 'Error', message: 'Nothing here answers isolated/token.' } });
    expect(signals[0]!.aborted).toBe(false);
    expect(taken).toEqual([]);
    // The extension's own questions still get the extension's answers.
    expect(await main.ask({ op: 'token', callId: 'real' })).toBe('token-1');
    expect(taken).toEqual([{ op: 'token', callId: 'real' }]);
    channel.cancel(id);
    await expect(result).rejects.toThrow('The call was cancelled');
    await vi.waitFor(() => expect(signals[0]!.aborted).toBe(true));
  });
});
