import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitWords } from './split-words';

/** The split as regular expressions say it (how the ranker split text before splitWords): the reference. */
function splitByRegex(text: string): string[] {
  return text
    .slice(0, 4000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/(\p{L})(?=\p{N})|(\p{N})(?=\p{L})/gu, '$1$2 ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

describe('splitWords', () => {
  it('splits camelCase, runs of capitals, snake_case, and letters from digits', () => {
    expect(splitWords('addToCart get_store_hours')).toEqual(['add', 'to', 'cart', 'get', 'store', 'hours']);
    expect(splitWords('rearrangeDOMComponents')).toEqual(['rearrange', 'dom', 'components']);
    expect(splitWords('openDoor2 step12 3D')).toEqual(['open', 'door', '2', 'step', '12', '3', 'd']);
    expect(splitWords('Café-au-lait, Straße! 😀 ١٢abc')).toEqual(['café', 'au', 'lait', 'straße', '١٢', 'abc']);
    expect(splitWords('')).toEqual([]);
  });

  it('reads only the first 4,000 characters', () => {
    expect(splitWords(`${'a '.repeat(2000)}tail`)).not.toContain('tail');
  });

  it('splits as the regular expressions do, on any text of letters, digits, capitals and separators', () => {
    const chars = fc.constantFrom(...'aZbYcXDOMe0189 _-.,/éÉßπΣ١٢😀'.split(/(?:)/u));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (list) => {
        const text = list.join('');
        expect(splitWords(text)).toEqual(splitByRegex(text));
      }),
      { numRuns: 2000 },
    );
  });
});
