import { describe, expect, it } from 'vitest';
import { americanSpelling } from './american-spelling';
import { tokenize } from './rank-tools';

describe('americanSpelling', () => {
  it('writes the regular British endings the American way', () => {
    const pairs = [
      ['customise', 'customize'],
      ['organisation', 'organization'],
      ['prioritising', 'prioritizing'],
      ['analyse', 'analyze'],
      ['favourites', 'favorites'],
      ['colour', 'color'],
      ['neighbourhood', 'neighborhood'],
      ['centre', 'center'],
      ['theatres', 'theaters'],
      ['catalogue', 'catalog'],
      ['licence', 'license'],
      ['programme', 'program'],
    ];
    for (const [british, american] of pairs) expect(americanSpelling(british)).toBe(american);
  });

  it('leaves short words and other words as they are', () => {
    for (const word of ['rise', 'wise', 'four', 'hour', 'tour', 'your', 'vogue', 'flour', 'center', 'cart', 'book', 'sister'])
      expect(americanSpelling(word)).toBe(word);
  });

  it('lets the ranker meet both spellings as one word', () => {
    expect(tokenize('Customise my favourite colours at the theatre')).toEqual(tokenize('customize my favorite colors at the theater'));
  });
});
