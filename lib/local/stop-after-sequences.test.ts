import { describe, expect, it } from 'vitest';
import { StopAfterSequences } from './stop-after-sequences';

describe('StopAfterSequences', () => {
  it('stops once the generated ids end with a marker sequence, compared as numbers (generate passes bigints)', () => {
    const stop = new StopAfterSequences([[7, 8]], 2);
    const ids = (...n: number[]) => n.map(BigInt) as unknown as number[];
    expect(stop._call([ids(1, 2, 5, 7, 8), ids(1, 2, 7, 8, 5)])).toEqual([true, false]);
  });

  it('never matches the marker inside the prompt, nor an empty marker', () => {
    expect(new StopAfterSequences([[7, 8]], 4)._call([[1, 2, 7, 8, 9]])).toEqual([false]);
    expect(new StopAfterSequences([[7, 8]], 3)._call([[1, 2, 7, 8]])).toEqual([false]);
    expect(new StopAfterSequences([[]], 0)._call([[1, 2]])).toEqual([false]);
  });
});
