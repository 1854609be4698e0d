import { describe, expect, it } from 'vitest';
import { stripTrailingEos } from './strip-trailing-eos';

const ids = (...n: number[]) => n.map(BigInt);

describe('stripTrailingEos', () => {
  it('drops the end-of-sequence tokens a reply ends with, one id or several', () => {
    expect(stripTrailingEos(ids(5, 6, 2, 2), 2)).toEqual(ids(5, 6));
    expect(stripTrailingEos(ids(5, 6, 2, 7), [2, 7])).toEqual(ids(5, 6));
  });

  it('keeps an end-of-sequence id inside the reply, and everything when the model names none', () => {
    expect(stripTrailingEos(ids(5, 2, 6), 2)).toEqual(ids(5, 2, 6));
    expect(stripTrailingEos(ids(5, 6, 2), undefined)).toEqual(ids(5, 6, 2));
    expect(stripTrailingEos(ids(5, 6, 2), null)).toEqual(ids(5, 6, 2));
    expect(stripTrailingEos(ids(2, 2), 2)).toEqual([]);
  });
});
