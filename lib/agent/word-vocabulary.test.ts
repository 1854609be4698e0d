import { describe, expect, it } from 'vitest';
import { createWordVocabulary, isPartialMatch } from './word-vocabulary';

describe('isPartialMatch', () => {
  it('matches a longer word the term begins, the end of a compound, and a word the term begins with', () => {
    expect(isPartialMatch('avail', 'availabl')).toBe(true);
    expect(isPartialMatch('order', 'reorder')).toBe(true);
    expect(isPartialMatch('cart', 'addtocart')).toBe(true);
    expect(isPartialMatch('directli', 'direct')).toBe(true);
  });

  it('leaves out short terms, short compound ends, short word starts and the word itself', () => {
    expect(isPartialMatch('ab', 'abc')).toBe(false);
    expect(isPartialMatch('art', 'cart')).toBe(false);
    expect(isPartialMatch('booking', 'book')).toBe(false);
    expect(isPartialMatch('cart', 'cart')).toBe(false);
    expect(isPartialMatch('cart', 'card')).toBe(false);
  });
});

describe('createWordVocabulary', () => {
  it('lists the words a term matches in part, including words added after it was first asked', () => {
    const vocabulary = createWordVocabulary();
    vocabulary.add(['availabl', 'cart', 'addtocart', 'book']);
    expect(vocabulary.partialMatches('cart')).toEqual(['addtocart']);
    expect(vocabulary.partialMatches('avail')).toEqual(['availabl']);
    vocabulary.add(['cartridg', 'cart', 'viewcart']);
    expect(vocabulary.partialMatches('cart')).toEqual(['addtocart', 'cartridg', 'viewcart']);
    expect(vocabulary.size).toBe(6);
  });

  it('starts afresh on reset, in a new generation', () => {
    const vocabulary = createWordVocabulary();
    vocabulary.add(['addtocart']);
    expect(vocabulary.partialMatches('cart')).toEqual(['addtocart']);
    const before = vocabulary.generation;
    vocabulary.reset();
    expect(vocabulary.generation).not.toBe(before);
    expect(vocabulary.size).toBe(0);
    expect(vocabulary.partialMatches('cart')).toEqual([]);
    vocabulary.add(['viewcart']);
    expect(vocabulary.partialMatches('cart')).toEqual(['viewcart']);
  });
});
