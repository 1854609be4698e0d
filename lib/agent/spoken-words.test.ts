import { describe, expect, it } from 'vitest';
import { tokenize } from './rank-tools';
import { SPOKEN_WORDS } from './spoken-words';

describe('SPOKEN_WORDS', () => {
  const list = SPOKEN_WORDS.split(' ');

  it('lists 2,000 distinct stems, commonest first', () => {
    expect(list).toHaveLength(2000);
    expect(new Set(list).size).toBe(2000);
    expect(list.indexOf('know')).toBeLessThan(list.indexOf('tomorrow'));
    expect(list.indexOf('tomorrow')).toBeLessThan(list.indexOf('cart') === -1 ? Number.POSITIVE_INFINITY : list.indexOf('cart'));
  });

  it('holds words as the ranker stems them, so a request word finds its place', () => {
    for (const word of ['late', 'telling', 'someone', 'minutes']) expect(list, word).toContain(tokenize(word)[0]);
    for (const stem of list) expect(stem).toMatch(/^[a-z]+$/);
  });
});
