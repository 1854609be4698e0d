import { describe, expect, it } from 'vitest';
import { createRequestLine, LineClosedError, type LineTransport } from './create-request-line.js';

// Both ends of a line over an in-memory transport pair with a Port's manners: messages are cloned and delivered
// later, in order; closing one end tells the other.

interface Asked {
  'math/add': { request: { a: number; b: number }; answer: number };
  'work/slow': { request: { steps: number }; answer: string; update: number };
  'work/forever': { request: object; answer: string };
  'log/said': { request: { text: string }; answer: undefined };
}

/** One end of the pair: a LineTransport, and what the test does to it (`hangUp`: the other side went, with why). */
type End = LineTransport & { deliver(message: unknown): void; hangUp(detail?: string): void };

function transportPair(): { a: End; b: End } {
  const make = (peer: () => End): End => {
    const messages = new Set<(message: unknown) => void>();
    const closes = new Set<(detail?: string) => void>();
    let open = true;
    return {
      send: (message) => {
        if (!open) throw new Error('Attempting to use a disconnected port object');
        peer().deliver(structuredClone(message));
      },
      onMessage: (listener) => void messages.add(listener),
      onClose: (listener) => void closes.add(listener),
      close: () => {
        if (!open) return;
        open = false;
        peer().hangUp();
      },
      deliver: (message) =>
        void setTimeout(() => {
          if (open) for (const listener of messages) listener(message);
        }, 0),
      hangUp: (detail) => {
        open = false;
        setTimeout(() => {
          for (const listener of closes) listener(detail);
        }, 0);
      },
    };
  };
  const pair: { a: End; b: End } = {} as never;
  pair.a = make(() => pair.b);
  pair.b = make(() => pair.a);
  return pair;
}

function connect() {
  const { a, b } = transportPair();
  const seen: { signal?: AbortSignal; notices: string[] } = { notices: [] };
  let release: (() => void) | undefined;
  const answering = createRequestLine<Record<never, never>, Asked>({
    transport: b,
    handlers: {
      'math/add': ({ a: x, b: y }) => x + y,
      'work/slow': async ({ steps }, { update }) => {
        for (let i = 1; i <= steps; i++) update(i / steps);
        return 'done';
      },
      'work/forever': (_request, { signal }) =>
        new Promise<string>((_resolve, reject) => {
          seen.signal = signal;
          release?.();
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    },
    notices: { 'log/said': ({ text }) => void seen.notices.push(text) },
  });
  const asking = createRequestLine<Asked>({ transport: a });
  const started = () => new Promise<void>((resolve) => (release = resolve));
  return { a, b, asking, answering, seen, started };
}

describe('createRequestLine', () => {
  it('asks and answers by type, with interim updates and notices', async () => {
    const { asking, seen } = connect();
    expect(await asking.ask('math/add', { a: 2, b: 3 })).toBe(5);
    const updates: number[] = [];
    expect(await asking.ask('work/slow', { steps: 4 }, { onUpdate: (u) => updates.push(u) })).toBe('done');
    expect(updates).toEqual([0.25, 0.5, 0.75, 1]);
    asking.notify('log/said', { text: 'hello' });
    await expect.poll(() => seen.notices).toEqual(['hello']);
  });

  it('cancels: the handler’s signal aborts and the ask rejects with the asker’s own reason', async () => {
    const { asking, seen, started } = connect();
    const controller = new AbortController();
    const running = started();
    const ask = asking.ask('work/forever', {}, { signal: controller.signal });
    await running;
    const reason = new DOMException('The step took too long.', 'TimeoutError');
    controller.abort(reason);
    await expect(ask).rejects.toBe(reason);
    await expect.poll(() => seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('waits for the other side to end after a cancel when asked to', async () => {
    const { asking, seen, started } = connect();
    const controller = new AbortController();
    const running = started();
    const ask = asking.ask('work/forever', {}, { signal: controller.signal, waitAfterCancel: true });
    await running;
    controller.abort(new Error('stop'));
    await expect(ask).rejects.toThrow('stop');
    // The rejection came only after the handler ended: its signal had aborted by then.
    expect(seen.signal?.aborted).toBe(true);
  });

  it('times out an ask and cancels it on the other side', async () => {
    const { asking, seen } = connect();
    await expect(asking.ask('work/forever', {}, { timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it('fails every pending ask with one clear error when the other side goes, and aborts its running handlers', async () => {
    const { b, asking, started } = connect();
    const running = started();
    const first = asking.ask('work/forever', {});
    const second = asking.ask('work/forever', {});
    await running;
    b.close?.(); // The answering side is gone (a Port's onDisconnect, a Worker's error).
    await expect(first).rejects.toBeInstanceOf(LineClosedError);
    await expect(second).rejects.toThrow('The line closed.');
    await expect(asking.ask('math/add', { a: 1, b: 1 })).rejects.toThrow('The line closed.');
    expect(asking.closed()).toBeInstanceOf(LineClosedError);

    // This end closing aborts what the other side runs for it.
    const again = connect();
    const waiting = again.started();
    void again.asking.ask('work/forever', {}).catch(() => undefined);
    await waiting;
    again.asking.close();
    await expect.poll(() => again.seen.signal?.aborted).toBe(true);
    expect(again.answering.closed()).toBeInstanceOf(LineClosedError);
  });

  it('closes with the error the line names', async () => {
    const { a } = transportPair();
    const line = createRequestLine<Asked>({ transport: a, closedError: (detail) => new Error(`The engine stopped: ${detail}`) });
    const pending = line.ask('math/add', { a: 1, b: 2 });
    a.hangUp('out of memory');
    await expect(pending).rejects.toThrow('The engine stopped: out of memory');
    const heard: string[] = [];
    line.onClose((error) => heard.push(error.message));
    expect(heard).toEqual(['The engine stopped: out of memory']);
  });

  it('runs an ask’s handler only for an ask and a notice’s only for a notice', async () => {
    const { a, asking, seen } = connect();
    // Sent raw, as a hostile other side could: an ask's type as a notice, a notice's type as an ask.
    a.send({ line: 'notice', type: 'work/forever', request: {} });
    a.send({ line: 'ask', id: 'raw', type: 'log/said', request: { text: 'as an ask' } });
    asking.notify('log/said', { text: 'as a notice' });
    await expect.poll(() => seen.notices).toEqual(['as a notice']);
    expect(seen.signal).toBeUndefined();
  });

  it('treats what arrives as untrusted: malformed messages and unknown ids are ignored, an answer lands once', async () => {
    const { a, b } = transportPair();
    const ids = ['only', 'next', 'last'];
    const line = createRequestLine<Asked>({ transport: a, nextId: () => ids.shift() ?? 'none' });
    const ask = line.ask('math/add', { a: 1, b: 2 });
    for (const junk of [
      null,
      'x',
      [],
      { line: 'answer' },
      { line: 'answer', id: {}, answer: 1 },
      { line: 'error', id: 'only', error: 'x' },
    ]) {
      b.send(junk as never);
    }
    b.send({ line: 'answer', id: 'someone-else', answer: 99 });
    b.send({ line: 'answer', id: 'only', answer: 3 });
    b.send({ line: 'answer', id: 'only', answer: 4 });
    expect(await ask).toBe(3);

    // An ask of a type nothing answers is refused, by name; an inherited name is not a handler.
    createRequestLine<Asked, Asked>({ transport: b, handlers: {} });
    const refused = line.ask('work/slow', { steps: 1 });
    await expect(refused).rejects.toThrow('Nothing here answers work/slow.');
    const proto = line.ask('toString' as never, {} as never);
    await expect(proto).rejects.toThrow('Nothing here answers toString.');
  });
});
