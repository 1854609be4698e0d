/** Shortest request word matched in part: shorter ones begin too many words by chance. */
const MIN_PARTIAL = 3;
/** Shortest request word matched as the end of a compound: shorter ones end too many words ("art" → "cart"). */
const MIN_COMPOUND_PART = 4;
/** Shortest tool word a longer request word may begin with for partial credit ("direct" in "directly"). */
const MIN_WORD_START = 5;
/** Request words whose partial matches are kept (each list grows with the vocabulary). */
const MAX_KEPT = 4000;

/** The words the ranker has indexed, and, per request word, those of them it matches in part. */
interface WordVocabulary {
  /** Changes when the vocabulary starts afresh (reset): words added before must be added again. */
  readonly generation: number;
  /** Distinct words in it. */
  readonly size: number;
  /** Adds a tool's (stemmed) words. */
  add(words: Iterable<string>): void;
  /**
   * The words that `term` matches in part (isPartialMatch), among all added so far, in the order they were added.
   * The list is the vocabulary's: do not change it.
   */
  partialMatches(term: string): readonly string[];
  /** Forgets every word (a new generation). */
  reset(): void;
}

/**
 * Whether a request word `term` matches a tool's word `word` in part (the ranker gives it less than the word
 * itself): `word` is longer and begins with `term` ("avail" → "availability"); or, for a term of at least
 * {@link MIN_COMPOUND_PART} letters, is longer and ends with it: the second part of a compound written as one word
 * ("order" → "reorder", "cart" → "addtocart"); or `word`, of at least {@link MIN_WORD_START} letters, is how `term`
 * begins, a form the stemmer left apart ("directly" → "direct").
 */
export function isPartialMatch(term: string, word: string): boolean {
  if (term.length < MIN_PARTIAL) return false;
  if (word.length > term.length) {
    return word.startsWith(term) || (term.length >= MIN_COMPOUND_PART && word.endsWith(term));
  }
  return word.length >= MIN_WORD_START && word.length < term.length && term.startsWith(word);
}

/**
 * A vocabulary of indexed words. Which words a request word matches in part depends on the word alone, not on the
 * tool: scanning the distinct words of a task's tools once per request word (and only the words added since, the
 * next time) costs a fraction of scanning every tool's words, and nothing for a word asked before.
 */
export function createWordVocabulary(): WordVocabulary {
  let words: string[] = [];
  let seen = new Set<string>();
  let generation = 0;
  /** Per request word: its partial matches among the first `upTo` words. */
  let kept = new Map<string, { upTo: number; matches: string[] }>();
  return {
    get generation() {
      return generation;
    },
    get size() {
      return words.length;
    },
    add(list) {
      for (const word of list) {
        if (seen.has(word)) continue;
        seen.add(word);
        words.push(word);
      }
    },
    partialMatches(term) {
      let entry = kept.get(term);
      if (!entry) {
        if (kept.size >= MAX_KEPT) kept.clear();
        entry = { upTo: 0, matches: [] };
        kept.set(term, entry);
      }
      if (term.length >= MIN_PARTIAL) {
        for (let i = entry.upTo; i < words.length; i++) if (isPartialMatch(term, words[i])) entry.matches.push(words[i]);
      }
      entry.upTo = words.length;
      return entry.matches;
    },
    reset() {
      words = [];
      seen = new Set();
      kept = new Map();
      generation++;
    },
  };
}
