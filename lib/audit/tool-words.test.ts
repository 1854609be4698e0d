import { describe, expect, it } from 'vitest';
import { bareVerb, CHANGING_VERBS, nameWords, READ_ONLY_VERBS, READING_VERBS, sentenceVerbs, textWords } from './tool-words';

describe('nameWords', () => {
  it('splits snake_case, kebab-case, dots and camelCase', () => {
    expect(nameWords('place_order')).toEqual(['place', 'order']);
    expect(nameWords('placeOrder')).toEqual(['place', 'order']);
    expect(nameWords('cart.add-item')).toEqual(['cart', 'add', 'item']);
  });
});

describe('sentenceVerbs', () => {
  it('takes the first word of each sentence, as a bare verb', () => {
    expect(sentenceVerbs('Adds an item to the cart. Returns the new cart!')).toEqual(['add', 'return']);
    expect(sentenceVerbs('Search the catalog (for example "mug"). Use an empty query to list everything.')).toEqual(['search', 'use']);
  });
});

describe('bareVerb', () => {
  it('drops a third-person ending', () => {
    expect(bareVerb('pushes')).toBe('push');
    expect(bareVerb('deletes')).toBe('delete');
    expect(bareVerb('books')).toBe('book');
    expect(bareVerb('pass')).toBe('pass');
    expect(bareVerb('status')).toBe('status');
  });
});

describe('textWords', () => {
  it('lower-cases and splits on anything but letters and digits', () => {
    expect(textWords('Read the RE-views, 5 stars')).toEqual(['read', 'the', 're', 'views', '5', 'stars']);
  });
});

describe('READING_VERBS', () => {
  it('holds the verbs that start a reading tool’s name', () => {
    expect(['get', 'list', 'search', 'read'].every((verb) => READING_VERBS.has(verb))).toBe(true);
    expect(READING_VERBS.has('delete')).toBe(false);
  });
});

describe('READ_ONLY_VERBS', () => {
  it('holds the verbs of tools that only read, and not those that as often change things', () => {
    expect(['search', 'get', 'list', 'quote', 'check', 'track', 'view'].every((verb) => READ_ONLY_VERBS.has(verb))).toBe(true);
    expect(['open', 'load', 'verify', 'add'].some((verb) => READ_ONLY_VERBS.has(verb))).toBe(false);
    expect([...READ_ONLY_VERBS].filter((verb) => CHANGING_VERBS.has(verb))).toEqual([]);
  });
});
