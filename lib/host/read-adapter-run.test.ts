import { describe, expect, it } from 'vitest';
import type { AgentStreamPart } from '../agent/types';
import { readAdapterRun } from './read-adapter-run';

const text = (delta: string): AgentStreamPart => ({ type: 'text-delta', messageId: 'm1', delta });

/** An async iterable over `parts` that records whether it was told to return. */
function adapterRun(parts: AgentStreamPart[], options: { thenHang?: boolean; failAt?: number } = {}) {
  const seen = { returned: false };
  const iterable: AsyncIterable<AgentStreamPart> = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() {
          if (options.failAt === i) throw new Error('the model host went away');
          if (i < parts.length) return { value: parts[i++], done: false };
          if (options.thenHang) return new Promise<never>(() => {});
          return { value: undefined, done: true };
        },
        async return() {
          seen.returned = true;
          return { value: undefined, done: true };
        },
      };
    },
  };
  return { iterable, seen };
}

describe('readAdapterRun', () => {
  it('hands every part over, in order, until the adapter ends', async () => {
    const { iterable, seen } = adapterRun([text('a'), text('b'), { type: 'finish', reason: 'stop' }]);
    const taken: AgentStreamPart[] = [];
    await readAdapterRun(iterable, { signal: new AbortController().signal, graceMs: 10, onPart: (p) => taken.push(p) > 0 });
    expect(taken).toEqual([text('a'), text('b'), { type: 'finish', reason: 'stop' }]);
    expect(seen.returned).toBe(false);
  });

  it('stops reading, and tells the adapter to return, once the run has ended', async () => {
    const { iterable, seen } = adapterRun([text('a'), { type: 'finish', reason: 'stop' }, text('after the end')]);
    const taken: AgentStreamPart[] = [];
    await readAdapterRun(iterable, {
      signal: new AbortController().signal,
      graceMs: 10,
      onPart: (p) => {
        taken.push(p);
        return p.type !== 'finish';
      },
    });
    expect(taken.map((p) => p.type)).toEqual(['text-delta', 'finish']);
    expect(seen.returned).toBe(true);
  });

  it('gives up on an adapter that ignores Stop once the grace period is over', async () => {
    const { iterable, seen } = adapterRun([text('a')], { thenHang: true });
    const stop = new AbortController();
    const taken: AgentStreamPart[] = [];
    const reading = readAdapterRun(iterable, { signal: stop.signal, graceMs: 20, onPart: (p) => taken.push(p) > 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    let done = false;
    void reading.then(() => {
      done = true;
    });
    stop.abort();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toBe(false);
    await reading;
    expect(taken).toEqual([text('a')]);
    expect(seen.returned).toBe(true);
  });

  it('rejects with the adapter’s failure', async () => {
    const { iterable } = adapterRun([text('a')], { failAt: 1 });
    await expect(readAdapterRun(iterable, { signal: new AbortController().signal, graceMs: 10, onPart: () => true })).rejects.toThrow(
      'the model host went away',
    );
  });
});
