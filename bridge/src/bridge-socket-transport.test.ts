import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeSocketTransport, EXTENSION_REFUSED } from './bridge-socket-transport.js';
import { createRequestLine } from './create-request-line.js';

interface Asks {
  'tools/call': { request: { name: string; arguments: Record<string, unknown> }; answer: { content: unknown[] }; update: string };
}
interface Hears {
  'tools/list-changed': { request: object; answer: undefined };
}

const left: (() => void)[] = [];
afterEach(() => {
  for (const clean of left.splice(0)) clean();
});

/** A real local socket: the far end is the test's, line by line, as the native host's relay would be. */
async function socketPair(): Promise<{ near: Socket; far: Socket; lines: string[]; next(): Promise<Record<string, unknown>> }> {
  const dir = mkdtempSync(join(tmpdir(), 'webmcp-line-'));
  const path = join(dir, 's.sock');
  const accepted = new Promise<Socket>((resolve) => {
    const server: Server = createServer(resolve);
    server.listen(path);
    left.push(() => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    });
  });
  const near = connect(path);
  const far = await accepted;
  const lines: string[] = [];
  const wakes = new Set<() => void>();
  far.on('data', (chunk) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    for (const wake of [...wakes]) {
      wakes.delete(wake);
      wake();
    }
  });
  left.push(() => near.destroy());
  const next = async () => {
    while (lines.length === 0) await new Promise<void>((resolve) => wakes.add(resolve));
    return JSON.parse(lines.shift() ?? '{}');
  };
  return { near, far, lines, next };
}

describe('bridgeSocketTransport', () => {
  it('speaks the bridge’s wire: asks and cancels out; replies, refusals, waits and notices in; the rest dropped', async () => {
    const { near, far, next } = await socketPair();
    const changed: number[] = [];
    let n = 0;
    const line = createRequestLine<Asks, Hears>({
      transport: bridgeSocketTransport(near),
      nextId: () => `id-${++n}`,
      notices: { 'tools/list-changed': () => void changed.push(1) },
    });
    const waits: string[] = [];
    const call = line.ask('tools/call', { name: 'search', arguments: { q: 'mug' } }, { onUpdate: (u) => waits.push(u) });
    expect(await next()).toEqual({ type: 'tools/call', id: 'id-1', name: 'search', arguments: { q: 'mug' } });
    const write = (message: unknown) => far.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    write('not json');
    write({ type: 'reply', id: 42, result: 'a number id is not ours' });
    write({ type: 'tools/waiting', id: 'id-1', message: 'Waiting for the person' });
    write({ type: 'tools/list-changed' });
    write({ type: 'reply', id: 'id-1', result: { content: [] } });
    expect(await call).toEqual({ content: [] });
    expect(waits).toEqual(['Waiting for the person']);
    expect(changed).toEqual([1]);

    const refused = line.ask('tools/call', { name: 'pay', arguments: {} });
    await next();
    write({ type: 'reply', id: 'id-2', error: { message: 'Say hello first.' } });
    await expect(refused).rejects.toMatchObject({ name: EXTENSION_REFUSED, message: 'Say hello first.' });

    const controller = new AbortController();
    const cancelled = line.ask('tools/call', { name: 'pay', arguments: {} }, { signal: controller.signal });
    await next();
    controller.abort(new Error('The client gave up.'));
    await expect(cancelled).rejects.toThrow('The client gave up.');
    expect(await next()).toEqual({ type: 'tools/cancel', id: 'id-3' });
  });

  it('fails what was pending when the socket closes', async () => {
    const { near, far, next } = await socketPair();
    const line = createRequestLine<Asks>({ transport: bridgeSocketTransport(near), nextId: () => 'only' });
    const call = line.ask('tools/call', { name: 'search', arguments: {} });
    await next();
    far.destroy();
    await expect(call).rejects.toThrow('The line closed.');
  });
});
