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

/**
 * Verbs of tools that only read: they search, list, quote, track or work something out, and change nothing. Narrower
 * than READING_VERBS on purpose: a wrong guess here advises readOnlyHint, which lets agents run the tool unasked, so
 * verbs that often change things are left out ("open" an account or a ticket, "load" a card, "verify" by mail).
 * "check" counts, but not "check in" or "check out" (see readsByWords).
 */
export const READ_ONLY_VERBS: ReadonlySet<string> = new Set([
  'get',
  'list',
  'search',
  'find',
  'lookup',
  'query',
  'fetch',
  'read',
  'show',
  'view',
  'browse',
  'quote',
  'check',
  'track',
  'count',
  'compare',
  'estimate',
  'calculate',
  'preview',
  'describe',
  'explain',
  'summarize',
  'inspect',
  'retrieve',
]);

/** Verbs of actions that change something (a tool named or described by one is not read-only). */
export const CHANGING_VERBS: ReadonlySet<string> = new Set([
  'add',
  'create',
  'update',
  'edit',
  'modify',
  'set',
  'change',
  'delete',
  'remove',
  'clear',
  'reset',
  'submit',
  'send',
  'post',
  'publish',
  'save',
  'store',
  'upload',
  'import',
  'move',
  'rename',
  'archive',
  'cancel',
  'subscribe',
  'unsubscribe',
  'register',
  'apply',
  'assign',
  'invite',
  'share',
  'follow',
  'like',
  'vote',
  'rate',
  'write',
  'insert',
  'toggle',
  'enable',
  'disable',
  'approve',
  'reject',
  'place',
  'mark',
  'record',
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
