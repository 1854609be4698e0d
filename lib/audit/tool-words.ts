/**
 * The words the annotation checks read a tool by: its name split into words, and the verbs its description's
 * sentences start with. Heuristics in English: they catch the usual ways of naming and describing an action, and
 * say so in every finding ("looks like"), because a word list cannot be sure.
 */

/** First words of the names of tools that read (they return something and change nothing by their name). */
export const READING_VERBS: ReadonlySet<string> = new Set([
  'get',
  'list',
  'search',
  'read',
  'find',
  'fetch',
  'show',
  'load',
  'view',
  'browse',
  'query',
  'lookup',
  'open',
]);

/** A tool name's words: split on anything but letters and digits and at camelCase, lower-cased ("placeOrder" → place, order). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The first word of each sentence of a description, lower-cased, as a bare verb: "Adds an item. Returns the cart."
 * gives add, return. Imperative and third-person descriptions read the same.
 */
export function sentenceVerbs(text: string): string[] {
  const verbs: string[] = [];
  for (const sentence of text.split(/[.!?;:]\s+|\n+/)) {
    const first = /^[\s"“'(]*([\p{L}]+)/u.exec(sentence)?.[1];
    if (first) verbs.push(bareVerb(first.toLowerCase()));
  }
  return verbs;
}

/** "adds" → add, "pushes" → push, "deletes" → delete; other words as they are. */
export function bareVerb(word: string): string {
  if (word.length > 4 && /(?:ch|sh|ss|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** A description's words, lower-cased (for phrases, the text itself is matched). */
export function textWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
