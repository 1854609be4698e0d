import { describe, expect, it } from 'vitest';
import type { FrameCallRequest } from '../messaging/router-messages';
import type { LineMessage } from '../messaging/create-request-line';
import { serveFrameCalls } from './serve-frame-calls';

const request: FrameCallRequest = { callId: 'c', name: 't', input: {}, timeoutMs: 1_000, maxResultChars: 100 };
const ask = (id: string) => ({ line: 'ask', id, type: 'bridge/call', request });

/** A frame's end whose calls run until their signal aborts, saying they wait for the person. */
function serve() {
  const told: LineMessage[] = [];
  const signals: AbortSignal[] = [];
  const server = serveFrameCalls(
    (_request, context) =>
      new Promise((resolve) => {
        signals.push(context.signal);
        context.update({ state: 'awaiting-confirmation' });
        context.signal.addEventListener('abort', () => resolve({ kind: 'navigated' }));
      }),
    (message) => told.push(message),
  );
  return { server, told, signals };
}

describe('serveFrameCalls', () => {
  it('answers an ask through the message that asked it; its updates go out; a cancel aborts its signal', async () => {
    const { server, told, signals } = serve();
    const answered = server.receive(ask('a'));
    expect(told).toEqual([{ line: 'update', id: 'a', update: { state: 'awaiting-confirmation' } }]);
    // The same id again, while it runs, is not run twice.
    expect(await server.receive(ask('a'))).toBeNull();
    expect(await server.receive({ line: 'cancel', id: 'a', reason: { name: 'AbortError', message: 'Stop' } })).toBeNull();
    expect(signals[0].aborted).toBe(true);
    expect(await answered).toEqual({ line: 'answer', id: 'a', answer: { kind: 'navigated' } });
    expect(signals).toHaveLength(1);
  });

  it('a line the background dropped aborts every running call, and a fresh line serves the next', async () => {
    const { server, signals } = serve();
    void server.receive(ask('a'));
    void server.receive(ask('b'));
    server.dropped('the service worker stopped');
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    expect((signals[0].reason as Error).message).toBe('The line closed: the service worker stopped');
    const next = server.receive(ask('a'));
    expect(signals[2].aborted).toBe(false);
    void server.receive({ line: 'cancel', id: 'a', reason: { name: 'AbortError', message: 'Stop' } });
    expect(await next).toMatchObject({ line: 'answer', id: 'a' });
  });

  it('an ask of a verb it does not serve is refused by name; anything malformed is ignored', async () => {
    const { server, signals } = serve();
    expect(await server.receive({ line: 'ask', id: 'x', type: 'bridge/format-disk', request: {} })).toEqual({
      line: 'error',
      id: 'x',
      error: { name: 'Error', message: 'Nothing here answers bridge/format-disk.' },
    });
    for (const junk of [null, 'ask', { line: 'ask' }, { line: 'answer', id: 'x', answer: 1 }])
      expect(await server.receive(junk)).toBeNull();
    expect(signals).toEqual([]);
  });
});
