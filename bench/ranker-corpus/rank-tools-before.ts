/**
 * The ranker as it was before this stop's work on issue 49 (lib/agent/rank-tools.ts and task-synonyms.ts at c6b41bf),
 * frozen so that `npm run bench -- ranker` and `-- hundreds` print its figures beside the current ranker's. Not used
 * by the extension.
 */
import { cleanText, compactSchema } from '../../lib/agent/compact-schema';
import { describeToolForModel } from '../../lib/agent/describe-tool-for-model';
import { MAX_RETURNS_CHARS } from '../../lib/agent/summarize-output-schema';
import type { ToolDescriptor } from '../../lib/agent/types';
import { isRecord } from '../../lib/shared/is-record';
import { stemmer } from 'stemmer';

/** lib/agent/task-synonyms.ts at c6b41bf. */
const TASK_SYNONYMS: readonly (readonly string[])[] = [
  ['buy', 'purchase', 'bought', 'order', 'checkout'],
  ['cart', 'basket', 'bag', 'trolley'],
  ['search', 'find', 'look', 'lookup', 'browse'],
  ['delete', 'remove', 'trash', 'erase', 'discard'],
  ['book', 'reserve', 'reservation', 'booking'],
  ['email', 'mail', 'e-mail'],
  ['price', 'cost', 'fare', 'fee', 'charge', 'quote'],
  ['borrow', 'loan', 'lend'],
  ['movie', 'film'],
  ['caption', 'subtitle'],
  ['photo', 'picture', 'image'],
  ['rent', 'hire', 'rental'],
  ['appointment', 'meeting', 'event', 'visit', 'checkup', 'consultation', 'slot'],
  ['note', 'memo'],
  ['task', 'todo', 'chore'],
  ['remind', 'reminder', 'notify', 'notification', 'alert'],
  ['trip', 'journey', 'itinerary', 'travel'],
  ['help', 'support', 'faq', 'guide', 'howto'],
  ['address', 'location', 'place'],
  ['near', 'nearby', 'nearest', 'closest'],
  ['bill', 'invoice', 'statement', 'receipt'],
  ['balance', 'funds', 'money', 'cash'],
  ['refund', 'return', 'reimburse'],
  ['delivery', 'deliver', 'shipping', 'ship', 'courier', 'package', 'parcel', 'shipment'],
  ['doctor', 'gp', 'physician', 'clinician'],
  ['medicine', 'medication', 'drug', 'prescription', 'pill', 'tablet'],
  ['change', 'edit', 'modify', 'update'],
  ['show', 'view', 'display', 'see'],
  ['create', 'new', 'make'],
  ['pay', 'payment', 'paid', 'spend', 'spent'],
  ['transfer', 'wire'],
  ['colour', 'color'],
  ['favourite', 'favorite', 'bookmark'],
  ['house', 'home', 'property', 'listing', 'flat', 'apartment'],
  ['people', 'person', 'guest', 'passenger', 'adult', 'child', 'kid', 'family'],
  ['car', 'vehicle', 'taxi', 'cab', 'ride'],
  ['phone', 'call', 'mobile'],
  ['history', 'past', 'previous', 'earlier'],
  ['track', 'tracking', 'status', 'where'],
  ['storage', 'space', 'capacity', 'quota', 'usage'],
  ['read', 'open'],
  ['clear', 'reset', 'empty'],
  ['detail', 'info', 'information', 'spec', 'specification'],
  ['ticket', 'request', 'case', 'issue'],
  ['cancel', 'undo', 'revoke'],
  ['filter', 'narrow', 'refine', 'only'],
  ['sort', 'rank', 'arrange'],
  ['under', 'below', 'max', 'maximum', 'cheaper'],
  ['over', 'above', 'min', 'minimum'],
  ['share', 'invite', 'permission', 'access'],
  ['when', 'available', 'availability', 'free', 'date'],
  ['temperature', 'thermostat', 'heating', 'cooling', 'hot', 'cold', 'warm'],
  ['weather', 'forecast', 'rain'],
  ['music', 'song', 'playlist'],
  ['message', 'chat', 'contact', 'ask', 'write'],
  ['subscribe', 'signup', 'join', 'register', 'newsletter'],
  ['recipe', 'dish', 'meal'],
  ['account', 'profile'],
  ['light', 'lamp'],
  ['stock', 'inventory'],
  ['review', 'rating', 'opinion'],
  ['again', 'reorder', 'repeat'],
  ['cheap', 'cheapest', 'budget', 'discount', 'deal', 'sale', 'promo', 'coupon'],
  ['size', 'fit', 'dimension', 'measurement'],
  ['job', 'career', 'vacancy', 'position'],
  ['friend', 'follower'],
  ['post', 'publish', 'tweet'],
  ['login', 'signin'],
  ['password', 'passcode', 'credential'],
  ['go', 'navigate'],
  ['play', 'watch', 'stream', 'listen'],
];

/**
 * Two-word phrases of everyday English that mean one word a tool is likelier to be named with: the ranker adds the
 * one word where the two stand ("what do I still have to do" → "todo"). Lower-case, exactly two words.
 */
const TASK_PHRASES: readonly (readonly [string, string])[] = [
  ['to do', 'todo'],
  ['sign in', 'login'],
  ['log in', 'login'],
  ['sign up', 'register'],
  ['log out', 'logout'],
  ['sign out', 'logout'],
  ['check in', 'checkin'],
  ['check out', 'checkout'],
  ['how much', 'price'],
  ['how many', 'count'],
  ['how do', 'help'],
  ['how to', 'help'],
  ['send back', 'return'],
  ['give back', 'return'],
  ['pick up', 'pickup'],
  ['drop off', 'dropoff'],
  ['set up', 'setup'],
  ['look up', 'lookup'],
  ['sold out', 'stock'],
  ['in stock', 'stock'],
  ['last time', 'history'],
  ['what time', 'time'],
];

/** Options of {@link rankToolsBefore}. */
interface RankToolsOptions {
  /** Most tools returned. Default 8. */
  max?: number;
  /** Names of tools used recently, most recent first: they get a bonus (a follow-up usually needs them again). */
  recent?: readonly string[];
}

/** Longest tool description kept for the prompt. */
const MAX_TOOL_DESCRIPTION = 320;

/**
 * What is indexed of a tool is what the model would be shown of it (compactTool, compactSchema): text a page hides
 * past those cuts must not win it a place. Top-level parameters only, the first few of them.
 */
const INDEXED = { title: 120, params: 16, paramDescription: 160, enumValues: 24, enumValue: 40 } as const;

/** The fields a tool's words come from. */
type Field = 'name' | 'site' | 'title' | 'params' | 'description' | 'paramDescriptions';

/**
 * Field weights: a word in the tool's own name says most; a parameter's name or allowed value ("suv", "vegan")
 * is close to the request's own words; the site a qualified name carries (`shop_example__add_to_cart`) is context.
 */
const WEIGHTS: Record<Field, number> = { name: 3, title: 2, params: 1.5, site: 1, description: 1, paramDescriptions: 0.5 };
const FIELDS = Object.keys(WEIGHTS) as Field[];
/**
 * BM25 saturation, and per-field length normalisation (BM25F): a long field's every word counts for less. A low
 * saturation: once a word matches a tool anywhere, where else it matches adds little, so a tool that matches more of
 * the request's words ranks above one that matches one word in many fields (pooled recall on the tuned corpus,
 * bench/ranker-corpus: 0.872 at 8 with 1.2, 0.895 with 0.5, no better lower).
 */
const K1 = 0.5;
const B: Record<Field, number> = { name: 0.5, site: 0.3, title: 0.75, params: 0.75, description: 0.9, paramDescriptions: 0.9 };
/**
 * How much each further matched word adds, once the tool's best-matched words are counted: the i-th best counts
 * 1 / (1 + BREADTH * (i - 1)). A real tool matches a request in two or three words; a text stuffed with every common
 * word matches many, and this keeps that breadth from adding up past a tool that matches what the request is about.
 */
const BREADTH = 0.75;
/** Bonus for the most recent tool, in BM25 units; older ones get less. About one well-matched word. */
const RECENT_BONUS = 1.5;
/** Credit for a query word that is only a prefix of a tool word ("avail" → "availability"). */
const PREFIX_CREDIT = 0.5;
/** Shortest word matched as the end of a compound: shorter ones end too many words by chance ("art" → "cart"). */
const MIN_COMPOUND_PART = 4;
/** Shortest tool word a longer request word may begin with for partial credit ("direct" in "directly"). */
const MIN_WORD_START = 5;
/** Credit for a query word whose synonym (TASK_SYNONYMS) is a tool word ("film" → "movie"). */
const SYNONYM_CREDIT = 0.5;

const STOPWORDS = new Set(
  'a an the to of for and or in on at by with from is are be it this that my me i you your we our can could would please do does did want need some any all what which how get not'.split(
    ' ',
  ),
);

interface Indexed {
  /** Each distinct word, with the fields it is in as bits (1 << FIELDS.indexOf(field)): a word counts once per field. */
  words: Map<string, number>;
  /** The same words as a list, for prefix matches (a list is faster to scan than a Map). */
  list: string[];
  /** Words in each field, repeats included (what length normalisation divides by), in FIELDS' order. */
  lengths: number[];
}

/** Indexed words per tool object (a snapshot's tools are reused step after step). */
const index = new WeakMap<ToolDescriptor, Indexed>();
/** Indexed words per tool text, for snapshots that rebuild equal tool objects. Bounded. */
const byText = new Map<string, Indexed>();
const MAX_BY_TEXT = 4000;
/** The prompt's compact copies, made only for tools that get shown. */
const compacts = new WeakMap<ToolDescriptor, ToolDescriptor>();

/**
 * The page's tools most relevant to `query`, at most `max`, best first, each with a compact schema for the prompt.
 *
 * Lexical relevance (BM25F over the tool's name, title, description, parameter names, allowed values and
 * descriptions, and the site of a site-qualified name; words split on case and underscores and lightly stemmed),
 * plus a bonus for recently used tools. Only what the model would be shown is indexed, a word counts once per
 * field, and breadth of match has diminishing returns, so a page cannot stuff a description to rank first for
 * every request. Tools that match nothing keep the page's order after those that do, so a vague request still sees
 * the page's first tools.
 */
export function rankToolsBefore(tools: readonly ToolDescriptor[], query: string, options: RankToolsOptions = {}): ToolDescriptor[] {
  const max = Math.max(0, Math.floor(options.max ?? 8));
  if (max === 0 || tools.length === 0) return [];
  const scores = scoreTools(tools, query, options.recent);
  const order = tools.map((_, i) => i);
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, max).map((i) => compactTool(tools[i]));
}

/**
 * How well each tool matches `query`, in `tools`' order: the score rankTools sorts by, plus the bonus for
 * recently used tools. Equal scores are what the ranker cannot tell apart (it then keeps the page's order).
 */
function scoreTools(tools: readonly ToolDescriptor[], query: string, recent: readonly string[] = []): Float64Array {
  const docs = tools.map(indexed);
  const terms = [...new Set(tokenize(query))];
  const scores = new Float64Array(tools.length);
  if (terms.length) {
    const fieldWeights = weightsPerField(docs);
    const matched: number[][] = docs.map(() => []);
    for (const term of terms) {
      // Per tool: full credit for the exact word, partial for a longer word it begins or for a synonym.
      const others = synonymsOf(term) ?? [];
      const tfs = docs.map((d, i) => {
        const w = fieldWeights[i];
        const exact = d.words.get(term);
        if (exact) return weightOf(exact, w);
        const prefix = prefixFields(d, term);
        if (prefix) return weightOf(prefix, w) * PREFIX_CREDIT;
        let synonym = 0;
        for (const other of others) synonym |= d.words.get(other) ?? 0;
        return synonym ? weightOf(synonym, w) * SYNONYM_CREDIT : 0;
      });
      const df = tfs.reduce((n, tf) => n + (tf > 0 ? 1 : 0), 0);
      if (df === 0) continue;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      for (let i = 0; i < docs.length; i++) if (tfs[i] > 0) matched[i].push((idf * tfs[i] * (K1 + 1)) / (tfs[i] + K1));
    }
    for (let i = 0; i < docs.length; i++) scores[i] = withDiminishingBreadth(matched[i]);
  }
  for (let i = 0; i < tools.length; i++) {
    const at = recent.indexOf(tools[i].name);
    if (at !== -1) scores[i] += RECENT_BONUS / (1 + at);
  }
  return scores;
}

/**
 * Per tool, what a match in each field is worth: the field's weight over its length norm (BM25F), 1 at the field's
 * average length in this list of tools, less when longer.
 */
function weightsPerField(docs: readonly Indexed[]): Float64Array[] {
  const averages = FIELDS.map((_, f) => docs.reduce((sum, d) => sum + d.lengths[f], 0) / docs.length || 1);
  return docs.map((d) =>
    Float64Array.from(FIELDS, (field, f) => WEIGHTS[field] / (1 - B[field] + (B[field] * d.lengths[f]) / averages[f])),
  );
}

/** The summed worth of the fields in `mask`. */
function weightOf(mask: number, weights: Float64Array): number {
  let tf = 0;
  for (let f = 0; f < weights.length; f++) if (mask & (1 << f)) tf += weights[f];
  return tf;
}

/**
 * The fields (as bits) holding a longer word that `term` begins ("avail" → "availability"), or, for a term of at
 * least {@link MIN_COMPOUND_PART} letters, ends: the second part of a compound written as one word ("order" →
 * "reorder", "cart" → "addtocart"); or a word of at least {@link MIN_WORD_START} letters that `term` begins, a form
 * the stemmer left apart ("directly" → "direct").
 */
function prefixFields(doc: Indexed, term: string): number {
  if (term.length < 3) return 0;
  const first = term.charCodeAt(0);
  const compound = term.length >= MIN_COMPOUND_PART;
  let mask = 0;
  for (const word of doc.list) {
    const longer = word.length > term.length;
    if (
      (longer && word.charCodeAt(0) === first && word.startsWith(term)) ||
      (longer && compound && word.endsWith(term)) ||
      (!longer && word.length >= MIN_WORD_START && word.length < term.length && term.startsWith(word))
    )
      mask |= doc.words.get(word) ?? 0;
  }
  return mask;
}

let synonyms: Map<string, string[]> | undefined;

/** The other words of `term`'s synonym groups, stemmed as tokenize stems. */
function synonymsOf(term: string): string[] | undefined {
  if (!synonyms) {
    synonyms = new Map();
    for (const group of TASK_SYNONYMS) {
      const stems = group.flatMap((word) => tokenize(word));
      for (const stem of stems) {
        const others = synonyms.get(stem) ?? [];
        for (const other of stems) if (other !== stem && !others.includes(other)) others.push(other);
        synonyms.set(stem, others);
      }
    }
  }
  return synonyms.get(term);
}

/** The sum of a tool's per-word scores, best first, the i-th counting 1 / (1 + BREADTH * (i - 1)). */
function withDiminishingBreadth(matches: number[]): number {
  matches.sort((a, b) => b - a);
  let sum = 0;
  for (let i = 0; i < matches.length; i++) sum += matches[i] / (1 + BREADTH * i);
  return sum;
}

function compactTool(tool: ToolDescriptor): ToolDescriptor {
  let compact = compacts.get(tool);
  if (!compact) {
    compact = {
      name: tool.name,
      description: describeToolForModel(
        cleanText(typeof tool.description === 'string' ? tool.description : '', MAX_TOOL_DESCRIPTION),
        typeof tool.returns === 'string' ? cleanText(tool.returns, MAX_RETURNS_CHARS) : undefined,
      ),
      inputSchema: compactSchema(tool.inputSchema),
    };
    compacts.set(tool, compact);
  }
  return compact;
}

/** The text of each field, cut where the prompt cuts it. */
function fieldTexts(tool: ToolDescriptor): Record<Field, string> {
  const name = typeof tool.name === 'string' ? tool.name : '';
  // A site-qualified name (`shop_example__add_to_cart`, lib/agent/site-tool-names.ts): the label has no "__".
  const split = name.indexOf('__');
  const params: string[] = [];
  const paramDescriptions: string[] = [];
  const properties = isRecord(tool.inputSchema) && isRecord(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  for (const [param, schema] of Object.entries(properties).slice(0, INDEXED.params)) {
    params.push(param);
    if (!isRecord(schema)) continue;
    if (Array.isArray(schema.enum)) {
      for (const value of schema.enum.slice(0, INDEXED.enumValues))
        if (typeof value === 'string') params.push(value.slice(0, INDEXED.enumValue));
    }
    if (typeof schema.description === 'string') paramDescriptions.push(schema.description.slice(0, INDEXED.paramDescription));
  }
  return {
    name: split > 0 ? name.slice(split + 2) : name,
    site: split > 0 ? name.slice(0, split) : '',
    title: typeof tool.title === 'string' ? tool.title.slice(0, INDEXED.title) : '',
    description: typeof tool.description === 'string' ? tool.description.slice(0, MAX_TOOL_DESCRIPTION) : '',
    params: params.join(' '),
    paramDescriptions: paramDescriptions.join(' '),
  };
}

function indexed(tool: ToolDescriptor): Indexed {
  const hit = index.get(tool);
  if (hit) return hit;
  const texts = fieldTexts(tool);
  const key = FIELDS.map((f) => texts[f]).join('\u0000');
  const known = byText.get(key);
  if (known) {
    index.set(tool, known);
    return known;
  }
  const words = new Map<string, number>();
  const lengths = FIELDS.map((field, f) => {
    const found = tokenize(texts[field]);
    for (const word of found) words.set(word, (words.get(word) ?? 0) | (1 << f));
    return found.length;
  });
  const entry: Indexed = { words, list: [...words.keys()], lengths };
  index.set(tool, entry);
  if (byText.size >= MAX_BY_TEXT) byText.clear();
  byText.set(key, entry);
  return entry;
}

/**
 * Words of a text: split on non-letters, camelCase (also "DOMComponents"), snake_case and letter-digit boundaries,
 * lower-cased, stopwords out, Porter-stemmed; a phrase of TASK_PHRASES ("to do", "sign in") adds its one-word form.
 */
function tokenize(text: string): string[] {
  const out: string[] = [];
  let spaced = text
    .slice(0, 4000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  if (/\d/.test(spaced)) spaced = spaced.replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4');
  const raws = spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const { byWords, firstWords } = phrases();
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i];
    const phrase = firstWords.has(raw) && i + 1 < raws.length ? byWords.get(`${raw} ${raws[i + 1]}`) : undefined;
    if (phrase) out.push(phrase);
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

let phraseMap: { byWords: Map<string, string>; firstWords: Set<string> } | undefined;

/** TASK_PHRASES by their two words, each to its one word's stem, and the words phrases begin with. */
function phrases(): { byWords: Map<string, string>; firstWords: Set<string> } {
  if (!phraseMap) {
    phraseMap = {
      byWords: new Map(TASK_PHRASES.map(([two, one]) => [two, stem(one)])),
      firstWords: new Set(TASK_PHRASES.map(([two]) => two.split(' ')[0])),
    };
  }
  return phraseMap;
}

/** Stems of words seen, bounded: a task's hundreds of tools share most of their words. */
const stems = new Map<string, string>();
const MAX_STEMS = 20_000;

/** Porter's stemmer (the `stemmer` package): the forms of a word meet ("bookings"/"booked"/"book"). */
function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    found = stemmer(word);
    stems.set(word, found);
  }
  return found;
}
