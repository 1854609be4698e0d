import { describe, expect, it } from 'vitest';
import { decideKvReuse } from './decide-kv-reuse';

const ids = (...n: number[]) => n.map(BigInt);
const never = () => {
  throw new Error('canCut was asked, but it could not change the answer');
};

describe('decideKvReuse', () => {
  it('hands the whole cache over when the prompt extends every cached token, without asking whether it can be cut', () => {
    expect(decideKvReuse(ids(1, 2, 3), ids(1, 2, 3, 4, 5), never)).toEqual({ take: 'whole', tokens: 3 });
    expect(decideKvReuse([], ids(1, 2), never)).toEqual({ take: 'whole', tokens: 0 });
  });

  it('keeps at least one prompt token to feed: the same prompt again reuses all but its last token', () => {
    expect(decideKvReuse(ids(1, 2, 3), ids(1, 2, 3), () => true)).toEqual({ take: 'prefix', tokens: 2 });
    expect(decideKvReuse(ids(1, 2, 3), ids(1, 2, 3), () => false)).toEqual({ take: 'none', tokens: 0 });
  });

  it('keeps the shared prefix of a diverging prompt only when the cache can be cut', () => {
    expect(decideKvReuse(ids(1, 2, 3, 4), ids(1, 2, 9, 9, 9), () => true)).toEqual({ take: 'prefix', tokens: 2 });
    expect(decideKvReuse(ids(1, 2, 3, 4), ids(1, 2, 9, 9, 9), () => false)).toEqual({ take: 'none', tokens: 0 });
  });

  it('drops a cache the prompt shares nothing with, without asking whether it can be cut', () => {
    expect(decideKvReuse(ids(1, 2, 3), ids(7, 2, 3, 4), never)).toEqual({ take: 'none', tokens: 0 });
    expect(decideKvReuse(ids(1, 2, 3), ids(1), never)).toEqual({ take: 'none', tokens: 0 });
  });

  it('compares tokens as ids: a shorter prompt never reuses more than it has', () => {
    expect(decideKvReuse(ids(5, 6, 7, 8), ids(5, 6, 7), () => true)).toEqual({ take: 'prefix', tokens: 2 });
  });
});
