import { describe, expect, it } from 'vitest';
import type { FrameToBackgroundMessage } from '../messaging/router-messages';
import { connectExposureRelay } from './connect-exposure-relay';
import type { PageAsk, PageChannel } from '../webmcp/page-channel';

/** A page channel whose MAIN side is scripted: `answer` runs what the isolated side requests. */
function fakePage(answer: (op: string, args?: unknown) => Promise<unknown>) {
  let ask: ((question: PageAsk) => Promise<unknown>) | undefined;
  const requests: { op: string; args?: unknown }[] = [];
  const cancelled: number[] = [];
  let id = 0;
  const page = {
    request: (op: string, args?: unknown) => {
      requests.push({ op, args });
      const result = answer(op, args);
      return op === 'run-exposed' ? { id: ++id, result } : result;
    },
    cancel: (n: number) => cancelled.push(n),
    onChanged: () => {},
    onAsk: (_ops: readonly string[], handler: (question: PageAsk) => Promise<unknown>) => {
      ask = handler;
    },
  } as unknown as PageChannel;
  return { page, requests, cancelled, ask: (question: PageAsk) => ask!(question) };
}

/** The frame's own place: the top's second child. */
const win = (() => {
  const top = { length: 2 } as unknown as Window & Record<number, unknown>;
  Object.assign(top, { parent: top });
  const self = { parent: top } as unknown as Window;
  top[0] = {} as Window;
  top[1] = self;
  return self;
})();

describe('connectExposureRelay', () => {
  it('sends what the polyfill exposes to the background with the place this frame reads for itself', async () => {
    const sent: FrameToBackgroundMessage[] = [];
    const channel = fakePage(async () => undefined);
    connectExposureRelay(win, channel.page, async (message) => {
      sent.push(message);
      return message.type === 'frame/exposed-tools' ? [{ name: 'book' }] : undefined;
    });
    const tools = [{ name: 'pay', title: '', description: 'Pays', exposedTo: ['https://shop.test'] }];
    await channel.ask({ op: 'exposed', tools });
    expect(await channel.ask({ op: 'exposed-tools', fromOrigins: ['https://widget.test'] })).toEqual([{ name: 'book' }]);
    expect(sent).toEqual([
      { type: 'frame/exposed', tools, path: [1] },
      { type: 'frame/exposed-tools', fromOrigins: ['https://widget.test'] },
    ]);
  });

  it('runs this frame’s exposed tool for the background and stops it when told, answering errors as data', async () => {
    let finish: (value: unknown) => void = () => {};
    const channel = fakePage((op) =>
      op === 'run-exposed'
        ? new Promise((resolve, reject) => (finish = (v) => (v instanceof Error ? reject(v) : resolve(v))))
        : Promise.resolve(true),
    );
    const handlers = connectExposureRelay(win, channel.page, async () => undefined);
    const running = handlers['bridge/run-exposed'](
      { type: 'bridge/run-exposed', callId: 'x1', name: 'pay', input: '{}', caller: 'https://shop.test' },
      undefined,
    );
    handlers['bridge/cancel-exposed']({ type: 'bridge/cancel-exposed', callId: 'x1' }, undefined);
    expect(channel.cancelled).toEqual([1]);
    finish(Object.assign(new Error('stopped'), { name: 'AbortError' }));
    expect(await running).toEqual({ ok: false, name: 'AbortError', message: 'stopped' });
    expect(channel.requests[0]).toEqual({ op: 'run-exposed', args: { name: 'pay', input: '{}', caller: 'https://shop.test' } });
    handlers['bridge/exposed-changed']({ type: 'bridge/exposed-changed' }, undefined);
    expect(channel.requests.at(-1)).toEqual({ op: 'exposed-changed', args: undefined });
  });
});
