// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustDeliveredMessages } from '../../tests/fixtures/trusted-port-messages';
import { createRequestLine } from './create-request-line';
import { messagePortTransport } from './message-port-transport';

interface Asked {
  'echo/slow': { request: { text: string }; answer: string };
}

let trust: Awaited<ReturnType<typeof trustDeliveredMessages>>;
beforeAll(async () => {
  trust = await trustDeliveredMessages();
});
afterAll(() => trust.restore());

/** Two lines over a real MessageChannel; the answering side holds each ask until `finish`. */
function pair(options: Parameters<typeof messagePortTransport>[1] = {}) {
  const { port1, port2 } = new MessageChannel();
  const finishes: ((text: string) => void)[] = [];
  const signals: AbortSignal[] = [];
  createRequestLine<Record<never, never>, Asked>({
    transport: messagePortTransport(port1),
    handlers: {
      'echo/slow': (_request, { signal }) => {
        signals.push(signal);
        return new Promise((resolve) => finishes.push(resolve));
      },
    },
  });
  const line = createRequestLine<Asked>({ transport: messagePortTransport(port2, options) });
  return { port1, port2, line, finishes, signals };
}

/** Resolves once the answering side holds `count` asks. */
async function held(signals: AbortSignal[], count: number) {
  await expect.poll(() => signals.length).toBe(count);
}

describe('messagePortTransport', () => {
  it('carries asks, and fails what was pending when the other end closes', async () => {
    const { port1, line, finishes, signals } = pair({ deliveredOnly: true });
    const first = line.ask('echo/slow', { text: 'one' });
    await held(signals, 1);
    finishes[0]?.('one!');
    expect(await first).toBe('one!');
    const second = line.ask('echo/slow', { text: 'two' });
    await held(signals, 2);
    port1.close();
    await expect(second).rejects.toThrow('The line closed: its other end closed');
  });

  it('fails what was pending when the document goes for good, not when it goes into the back/forward cache', async () => {
    const { line, finishes, signals } = pair({ win: window });
    const pending = line.ask('echo/slow', { text: 'one' });
    await held(signals, 1);
    trust.deliver(window, 'pagehide', { persisted: true });
    // One that script dispatched is no sign that the document goes.
    window.dispatchEvent(new Event('pagehide'));
    finishes[0]?.('one!');
    expect(await pending).toBe('one!');
    const next = line.ask('echo/slow', { text: 'two' });
    await held(signals, 2);
    trust.deliver(window, 'pagehide', { persisted: false });
    await expect(next).rejects.toThrow('The line closed: its document went away');
  });

  it('delivered only: a message or close that script dispatched on the port is not taken', async () => {
    const { port2, line, finishes, signals } = pair({ deliveredOnly: true });
    const pending = line.ask('echo/slow', { text: 'one' });
    await held(signals, 1);
    // The first ask's id is 1 (the line's default ids).
    trust.forge(port2, { line: 'answer', id: 1, answer: 'forged' });
    trust.forge(port2, null, 'close');
    finishes[0]?.('one!');
    expect(await pending).toBe('one!');
  });
});
