import type { ToolDescriptor } from '../agent/types';
import { quote } from './finding-for';
import { nameWords, READING_VERBS, sentenceVerbs } from './tool-words';

/** Verbs of actions that spend money, send something, delete something or book something. */
export const CONSEQUENTIAL_VERBS: ReadonlySet<string> = new Set([
  'buy',
  'purchase',
  'pay',
  'checkout',
  'send',
  'delete',
  'erase',
  'destroy',
  'book',
  'reserve',
  'transfer',
  'charge',
  'refund',
  'donate',
]);
/** Of those, the ones that are nouns just as often ("books", "orders"): they count only as the name's first word or a sentence's. */
const ANYWHERE = new Set(['buy', 'purchase', 'pay', 'checkout', 'delete', 'transfer', 'refund']);
/** Phrases that say the same in a description. */
const PHRASES =
  /\b(?:buys|purchases|pays|charges|deletes|transfers|refunds|places? (?:an |the |your )?orders?|submits? (?:an |the |your )?(?:order|payment)|check(?:s|ing)? out|sends? (?:an? |the |your )?(?:message|email|e-mail|sms|text|payment|money|invitation|invite)s?)\b/i;

/**
 * The words that make a tool look consequential (it buys, pays, sends, deletes or books), quoted for a finding, or
 * undefined when nothing does. Read from the name's words (check_out, placeOrder, delete_account) and the
 * description's sentences ("Books a table.", "This buys the items.").
 */
export function looksConsequential(tool: ToolDescriptor & { originalName?: string }): string | undefined {
  const words = nameWords(tool.originalName ?? tool.name);
  const joined = words.join(' ');
  // A name that starts by reading (get_checkout_url, list_payments) says what it reads, not what it does.
  const reads = READING_VERBS.has(words[0]);
  if (!reads && (CONSEQUENTIAL_VERBS.has(words[0]) || words.some((w) => ANYWHERE.has(w))))
    return `the name ${quote(tool.originalName ?? tool.name)}`;
  if (!reads && /\bcheck out\b|\b(?:place|submit) (?:an? )?order\b/.test(joined))
    return `the name ${quote(tool.originalName ?? tool.name)}`;
  const description = quote(tool.description, 2_000);
  const verb = sentenceVerbs(description).find((v) => CONSEQUENTIAL_VERBS.has(v));
  if (verb) return `“${verb}” in the description`;
  const phrase = PHRASES.exec(description)?.[0];
  return phrase ? `“${phrase.toLowerCase()}” in the description` : undefined;
}
