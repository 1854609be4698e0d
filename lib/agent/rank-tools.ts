import { cleanText, compactSchema } from './compact-schema';
import { describeToolForModel } from './describe-tool-for-model';
import { pooledDescriptionLead } from './pool-task-tools';
import { MAX_RETURNS_CHARS } from './summarize-output-schema';
import { TASK_PHRASES, TASK_SYNONYMS } from './task-synonyms';
import type { ToolDescriptor } from './types';
import { isRecord } from '../shared/is-record';
import { americanSpelling } from './american-spelling';
import { splitWords } from './split-words';
import { valueHints } from './value-hints';
import { createWordVocabulary } from './word-vocabulary';
import { SPOKEN_WORDS } from './spoken-words';
import { stemmer } from 'stemmer';

/** Options of {@link rankTools}. */
interface RankToolsOptions {
  /** Most tools returned. Default 8. */
  max?: number;
  /** Names of tools used recently, most recent first: they get a bonus (a follow-up usually needs them again). */
  recent?: readonly string[];
  /**
   * The label (siteLabel) of the site the person is on, in a task across tabs: its tools, listed under that label
   * (`<label>__<tool>`), are favoured (HERE_BOOST, HERE_FLOOR).
   */
  here?: string;
  /**
   * The person's turns before the request (rankingContext's `earlier`): their words count for EARLIER_WEIGHT of the
   * request's, so that a follow-up that does not say its topic again ("Only direct ones") still finds it.
   */
  earlier?: string;
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
/**
 * A description's length normalisation is BM25's usual 0.75, as a title's and the parameters': a long description's
 * words count for less, but a tool that says at length what it does is not pushed as far below tools that say less.
 * Tuned sites of bench/ranker-corpus (278 pairs), recall at 4 / 8 on the own tab, from another tab and by names only:
 * 0.964 / 0.986, 0.788 / 0.881 and 0.802 / 0.888 with 0.9; 0.964 / 0.989, 0.802 / 0.885 and 0.813 / 0.888 with 0.75
 * (both halves of the tuned sites gained, no pair lost on balance); 0.7 and 0.6 had a pair fewer at 4 from another
 * tab and by names only, and one or two more at 8.
 */
const B: Record<Field, number> = { name: 0.5, site: 0.3, title: 0.75, params: 0.75, description: 0.75, paramDescriptions: 0.9 };
/**
 * How much each further matched word adds, once the tool's best-matched words are counted: the i-th best counts
 * 1 / (1 + BREADTH * (i - 1)). A real tool matches a request in two or three words; a text stuffed with every common
 * word matches many, and this keeps that breadth from adding up past a tool that matches what the request is about.
 */
const BREADTH = 0.75;
/**
 * A tool's score times the share of the request it covers, to this power: of the request's words (and the kinds of
 * values it carries, valueHints) that some tool in the list matches, the share this tool matches, exactly, in part or
 * by a synonym. A word matched in many fields saturates (K1), but a tool that has one of the request's words in its
 * name can still outrank one that has two of them in its description; this tips such near ties to the tool that has
 * more of what was asked. Only the request's own words count, not its earlier turns'. Mild: a tool that covers
 * half the request keeps 0.93 of its score, and a text stuffed with every word gains no more than that over it.
 * Tuned sites of bench/ranker-corpus (278 pairs), recall at 4 / 8 on the own tab, from another tab and by names only:
 * 0.964 / 0.989, 0.802 / 0.885 and 0.813 / 0.888 without; 0.971 / 0.989, 0.802 / 0.899 and 0.817 / 0.903 with 0.1
 * (both halves of the tuned sites gained, no pair lost on balance in any row); 0.05 gained less (0.968 / 0.989,
 * 0.802 / 0.896, 0.813 / 0.899); 0.15 moved more pairs either way (0.964 / 0.989, 0.806 / 0.896, 0.824 / 0.903).
 * With the value kinds left out of the share, a request's e-mail address no longer found the tool with a parameter
 * for it.
 */
const COVERAGE_POWER = 0.1;
/**
 * In a task across tabs, the tools of the site the person typed the request on: their score, plus HERE_FLOOR, times
 * HERE_BOOST. A request typed on a site is most often about that site, and a short or vague one ("Number 2.", "We
 * are 10 actually") says nothing of which tab it means: without the floor, one filler word matching another site's
 * tool would rank that tool above every tool of the person's own site. A request whose words are another tab's
 * still finds that tab's tools: the floor is a fraction of one matched word, and the factor only raises what the
 * request's words give. The tuned sites of bench/ranker-corpus, recall at 4 / 8 asked on their own tab and from
 * another tab (before the pronoun rule of tokenize): 0.813 / 0.904 and 0.813 / 0.900 with neither; 0.927 / 0.954 and 0.790 / 0.890 with the factor
 * alone; 0.941 / 0.968 and 0.790 / 0.886 with both (the price: a tool of the person's site matching a word of a
 * request about another tab). Factors of 1.25 and 2 and floors of 0.2 and 1 were also measured (README there).
 */
const HERE_BOOST = 1.5;
const HERE_FLOOR = 0.5;
/**
 * A request that matches no tool well says little of which tab it means ("Number 2.", "Let's do it again"): the
 * person's site is then the best guess. Its tools are lifted by what the best match of the whole list falls short of
 * HERE_LIFT_SHARE of a word that one tool alone has (BM25's IDF at a document frequency of 1, which grows with the
 * list); a request that matches some tool that well gets no lift, and a request about another tab that says what it
 * wants still finds that tab's tool. Tuned sites of bench/ranker-corpus, recall at 4 / 8 asked on their own tab and
 * from another tab: 0.950 / 0.977 and 0.790 / 0.895 without; 0.954 / 0.982 and 0.790 / 0.895 with 0.8 to 0.9 (at 1
 * tool offered, one pair lost from another tab); with 1, 0.954 / 0.991 and 0.785 / 0.886.
 */
const HERE_LIFT_SHARE = 0.85;
/**
 * What a word of the person's earlier turns counts for, against a word of the request: the topic of a follow-up,
 * not what it asks for now (a word in both counts as the request's).
 */
const EARLIER_WEIGHT = 0.25;
/**
 * What the kind of a value the request carries (valueHints: an e-mail address, an amount, a date) counts for, against
 * a request word, matched only in a tool's parameter names and allowed values. Tuned sites of bench/ranker-corpus,
 * recall at 1 / 4 / 8 (219 pairs) on the own tab, from another tab and by names only: 155 / 209 / 215, 101 / 173 /
 * 196 and 104 / 179 / 198 without; 159 / 211 / 215, 105 / 176 / 196 and 109 / 181 / 198 with 0.75, no pair lost in
 * either half of the tuned sites; 0.5 gained less, 1 lost a pair in one half, 2 lost more.
 */
const VALUE_HINT_WEIGHT = 0.75;
const PARAMS_BIT = 1 << FIELDS.indexOf('params');
/** Bonus for the most recent tool, in BM25 units; older ones get less. About one well-matched word. */
const RECENT_BONUS = 1.5;
/** Credit for a query word that matches a tool word only in part (isPartialMatch: "avail" → "availability"). */
const PREFIX_CREDIT = 0.5;
/** Credit for a query word whose synonym (TASK_SYNONYMS) is a tool word ("film" → "movie"). */
const SYNONYM_CREDIT = 0.5;
/** A word of digits only. */
const NUMBER = /^[0-9]+$/;
/** How much less the commonest spoken word weighs (spokenWeight). */
const SPOKEN_DAMP = 0.5;

const STOPWORDS = new Set(
  'a an the to of for and or in on at by with from is are be it this that my me i you your we our can could would please do does did want need some any all what which how get not'.split(
    ' ',
  ),
);

interface Indexed {
  /** Each distinct word, with the fields it is in as bits (1 << FIELDS.indexOf(field)): a word counts once per field. */
  words: Map<string, number>;
  /** Words in each field, repeats included (what length normalisation divides by), in FIELDS' order. */
  lengths: number[];
  /** The vocabulary generation its words were last added to (enroll). */
  generation: number;
}

/**
 * Every word stemmed (stem adds each as it first stems it: a tool's words, and a request's), for partial matches
 * (word-vocabulary.ts).
 */
const vocabulary = createWordVocabulary();
/** Distinct words past which the vocabulary starts afresh (only the tools ranked from then on are added again). */
const MAX_VOCABULARY = 100_000;

/**
 * Starts the vocabulary afresh once it grew past its bound, with the caches of stemmed words, so that words come
 * through stem again and are added; the parts indexed before are added again when ranked (enroll).
 */
function boundVocabulary(): void {
  if (vocabulary.size <= MAX_VOCABULARY) return;
  vocabulary.reset();
  stems.clear();
  byFieldText.clear();
  joinedByName.clear();
}

/** Adds an indexed part's words to the vocabulary, unless they are in its generation already. */
function enroll(part: Indexed): void {
  if (part.generation === vocabulary.generation) return;
  vocabulary.add(part.words.keys());
  part.generation = vocabulary.generation;
}

/**
 * A tool's words as two parts: its own (every field but the site) and its site's (the label a qualified name
 * carries). A task pools new copies of its tabs' tools at every step, each under its site's label: the two parts
 * are each learnt once, by content, and a pooled copy only pairs them.
 */
interface ToolWords {
  own: Indexed;
  site: Indexed;
}

/** Words per tool object (a step's tools are ranked against the request once, and searched). */
const index = new WeakMap<ToolDescriptor, ToolWords>();
/** The prompt's compact copies, made only for tools that get shown. */
const compacts = new WeakMap<ToolDescriptor, ToolDescriptor>();

/**
 * The page's tools most relevant to `query`, at most `max`, best first, each with a compact schema for the prompt.
 *
 * Lexical relevance (BM25F over the tool's name, title, description, parameter names, allowed values and
 * descriptions, and the site of a site-qualified name; words split on case and underscores, spelt the American way
 * and lightly stemmed) to the request and, for less, to the person's earlier turns (`earlier`) and to the kinds of
 * values the request carries (valueHints), plus a bonus for recently used tools and, in a task across tabs, a favour
 * for the tools of the site the person is on (`here`). Only what the model would be shown is indexed, a word counts
 * once per field, and breadth of match has diminishing returns, so a page cannot stuff a description to rank first for
 * every request. Tools that match nothing keep the page's order after those that do, so a vague request still sees
 * the page's first tools.
 */
export function rankTools(tools: readonly ToolDescriptor[], query: string, options: RankToolsOptions = {}): ToolDescriptor[] {
  const max = Math.max(0, Math.floor(options.max ?? 8));
  if (max === 0 || tools.length === 0) return [];
  const scores = scoreTools(tools, query, options.recent, options.here, options.earlier);
  const order = tools.map((_, i) => i);
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, max).map((i) => compactTool(tools[i]));
}

/**
 * Splits and stems the tools' texts now, as they arrive (a tab's snapshot), so that the first request over them
 * only does the request's own work: what is learnt is kept by the tool's texts (and a site's words by its label),
 * so the task's pooled, site-qualified copies of the same tools, new objects at every step, find it. Ranks nothing.
 */
export function indexTools(tools: readonly ToolDescriptor[]): void {
  boundVocabulary();
  for (const tool of tools) if (tool && typeof tool === 'object') indexed(tool);
}

/**
 * How well each tool matches `query`, in `tools`' order: the score rankTools sorts by, plus the bonus for
 * recently used tools. Equal scores are what the ranker cannot tell apart (it then keeps the page's order).
 */
export function scoreTools(
  tools: readonly ToolDescriptor[],
  query: string,
  recent: readonly string[] = [],
  here?: string,
  earlier = '',
): Float64Array {
  const docs = tools.map(indexed);
  const terms = termsOf(query, earlier);
  const hints = valueHints(query)
    .map(stem)
    .filter((hint) => !terms.has(hint));
  const scores = new Float64Array(tools.length);
  if (terms.size || hints.length) {
    // A vocabulary grown past its bound starts afresh, with this list's words.
    boundVocabulary();
    for (const d of docs) {
      enroll(d.own);
      enroll(d.site);
    }
    const fieldWeights = weightsPerField(docs);
    // Per tool, the scores of the words it matches: only the tools that match any get a list.
    const matched: (number[] | undefined)[] = new Array(docs.length);
    const tfs = new Float64Array(docs.length);
    // Per tool, how many of the request's words and value kinds that any tool matches it matches (COVERAGE_POWER).
    const covered = new Float64Array(docs.length);
    let coverable = 0;
    const cover = () => {
      coverable++;
      for (let i = 0; i < docs.length; i++) if (tfs[i] > 0) covered[i]++;
    };
    for (const [term, weight] of terms) {
      // Per tool: full credit for the exact word, partial for a word it matches in part or for a synonym.
      const partial = vocabulary.partialMatches(term);
      const others = synonymsOf(term) ?? [];
      let df = 0;
      for (let i = 0; i < docs.length; i++) {
        tfs[i] = termFrequency(docs[i], fieldWeights, i * FIELDS.length, term, partial, others);
        if (tfs[i] > 0) df++;
      }
      addMatches(matched, tfs, df, spokenWeight(term) * weight);
      if (df > 0 && weight === 1) cover();
    }
    for (const hint of hints) {
      // A value's kind counts where a tool names its parameters only ("recipientEmail", "maxPrice").
      let df = 0;
      for (let i = 0; i < docs.length; i++) {
        tfs[i] = weightOf(fieldsOf(docs[i], hint) & PARAMS_BIT, fieldWeights, i * FIELDS.length);
        if (tfs[i] > 0) df++;
      }
      addMatches(matched, tfs, df, VALUE_HINT_WEIGHT);
      if (df > 0) cover();
    }
    for (let i = 0; i < docs.length; i++) {
      const coverage = coverable ? covered[i] / coverable : 1;
      scores[i] = withDiminishingBreadth(matched[i] ?? []) * coverage ** COVERAGE_POWER;
    }
  }
  if (here) favourHere(tools, scores, here);
  for (let i = 0; i < tools.length; i++) {
    const at = recent.indexOf(tools[i].name);
    if (at !== -1) scores[i] += RECENT_BONUS / (1 + at);
  }
  return scores;
}

/** Raises the scores of the tools listed under the person's site (`here`): HERE_FLOOR, HERE_BOOST, HERE_LIFT_SHARE. */
function favourHere(tools: readonly ToolDescriptor[], scores: Float64Array, here: string): void {
  const prefix = `${here}__`;
  let best = 0;
  for (const score of scores) best = Math.max(best, score);
  const rareWord = Math.log(1 + (tools.length - 0.5) / 1.5);
  const lift = Math.max(0, HERE_LIFT_SHARE * rareWord - best);
  for (let i = 0; i < tools.length; i++) {
    const name = tools[i].name;
    if (typeof name === 'string' && name.startsWith(prefix)) scores[i] = (scores[i] + HERE_FLOOR) * HERE_BOOST + lift;
  }
}

/**
 * Per tool, what a match in each field is worth: the field's weight over its length norm (BM25F), 1 at the field's
 * average length in this list of tools, less when longer. One array, the i-th tool's fields from i * FIELDS.length
 * (not an array per tool: a request allocates less).
 */
function weightsPerField(docs: readonly ToolWords[]): Float64Array {
  const length = (d: ToolWords, f: number) => d.own.lengths[f] + d.site.lengths[f];
  const averages = FIELDS.map((_, f) => docs.reduce((sum, d) => sum + length(d, f), 0) / docs.length || 1);
  const weights = new Float64Array(docs.length * FIELDS.length);
  for (let i = 0; i < docs.length; i++) {
    for (let f = 0; f < FIELDS.length; f++) {
      const field = FIELDS[f];
      weights[i * FIELDS.length + f] = WEIGHTS[field] / (1 - B[field] + (B[field] * length(docs[i], f)) / averages[f]);
    }
  }
  return weights;
}

/** Adds, per tool that a word matches (`tfs`, `df` of them), the word's BM25 score times `weight`. */
function addMatches(matched: (number[] | undefined)[], tfs: Float64Array, df: number, weight: number): void {
  if (df === 0) return;
  const idf = Math.log(1 + (tfs.length - df + 0.5) / (df + 0.5)) * weight;
  for (let i = 0; i < tfs.length; i++) {
    if (tfs[i] <= 0) continue;
    const score = (idf * tfs[i] * (K1 + 1)) / (tfs[i] + K1);
    const list = matched[i];
    if (list) list.push(score);
    else matched[i] = [score];
  }
}

/**
 * The words scored, each with its weight: the request's, and those of the earlier turns it does not have, for
 * EARLIER_WEIGHT. A request's numbers are values (a quantity, an id, a price, a date), not what it asks to do: a
 * number some tool's text holds (a limit, an example) would match them by chance.
 */
function termsOf(query: string, earlier: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const term of tokenize(query)) if (!NUMBER.test(term)) terms.set(term, 1);
  if (earlier) for (const term of tokenize(earlier)) if (!NUMBER.test(term) && !terms.has(term)) terms.set(term, EARLIER_WEIGHT);
  return terms;
}

/**
 * What `term` is worth in a tool: its fields' weights (`weights` from `at`), for a match in part or by a synonym
 * for less.
 */
function termFrequency(
  doc: ToolWords,
  weights: Float64Array,
  at: number,
  term: string,
  partial: readonly string[],
  synonyms: readonly string[],
): number {
  const exact = fieldsOf(doc, term);
  if (exact) return weightOf(exact, weights, at);
  let inPart = 0;
  for (const word of partial) inPart |= fieldsOf(doc, word);
  if (inPart) return weightOf(inPart, weights, at) * PREFIX_CREDIT;
  let synonym = 0;
  for (const other of synonyms) synonym |= fieldsOf(doc, other);
  return synonym ? weightOf(synonym, weights, at) * SYNONYM_CREDIT : 0;
}

/** The fields (as bits) a tool has `word` in. */
function fieldsOf(doc: ToolWords, word: string): number {
  return (doc.own.words.get(word) ?? 0) | (doc.site.words.get(word) ?? 0);
}

/** The summed worth of the fields in `mask`, a tool's fields' weights in `weights` from `at`. */
function weightOf(mask: number, weights: Float64Array, at: number): number {
  let tf = 0;
  for (let f = 0; f < FIELDS.length; f++) if (mask & (1 << f)) tf += weights[at + f];
  return tf;
}

let spokenRanks: Map<string, number> | undefined;

/**
 * What a request word's weight is multiplied by for how common the word is in spoken English (SPOKEN_WORDS): 1 for
 * a word outside the list, down to 1 - SPOKEN_DAMP for the commonest, by the log of its place. The ranker's IDF only
 * knows the tools: a word tools seldom use but people say all the time ("late", "today", "someone", "tell") is rare
 * among tools and so weighs as much as what the request is about. Pooled recall on the tuned corpus at 4 tools:
 * 0.795 without, 0.813 with 0.5 (both halves of the tuned sites gained; at 8 tools, unchanged).
 */
function spokenWeight(term: string): number {
  if (!spokenRanks) {
    const list = SPOKEN_WORDS.split(' ');
    spokenRanks = new Map(list.map((word, i) => [word, i]));
  }
  const rank = spokenRanks.get(term);
  if (rank === undefined) return 1;
  return 1 - SPOKEN_DAMP * (1 - Math.log(1 + rank) / Math.log(1 + spokenRanks.size));
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
        ownDescription(tool, (text) => cleanText(text, MAX_TOOL_DESCRIPTION)),
        typeof tool.returns === 'string' ? cleanText(tool.returns, MAX_RETURNS_CHARS) : undefined,
      ),
      inputSchema: compactSchema(tool.inputSchema),
    };
    compacts.set(tool, compact);
  }
  return compact;
}

/**
 * A tool's description as the prompt shows it: the page's own words cut by `cut`, after the words a task's pool put
 * before them (where the tool runs, pool-task-tools.ts), which use none of the page's length; without those words
 * when `withLead` is false.
 */
function ownDescription(tool: ToolDescriptor, cut: (text: string) => string, withLead = true): string {
  const full = typeof tool.description === 'string' ? tool.description : '';
  const lead = pooledDescriptionLead(full);
  return `${withLead ? full.slice(0, lead) : ''}${cut(full.slice(lead))}`;
}

/**
 * A tool's parameters as text, per schema object: a task's pooled copies of a tab's tools share their schemas, and
 * the tab's tools give the same objects step after step.
 */
const paramTexts = new WeakMap<object, { params: string; paramDescriptions: string }>();

/** The parameters' names and allowed values, and their descriptions, cut where the prompt cuts them. */
function paramTextsOf(inputSchema: unknown): { params: string; paramDescriptions: string } {
  if (!isRecord(inputSchema)) return { params: '', paramDescriptions: '' };
  const hit = paramTexts.get(inputSchema);
  if (hit) return hit;
  const params: string[] = [];
  const paramDescriptions: string[] = [];
  const properties = isRecord(inputSchema.properties) ? inputSchema.properties : {};
  for (const [param, schema] of Object.entries(properties).slice(0, INDEXED.params)) {
    params.push(param);
    if (!isRecord(schema)) continue;
    if (Array.isArray(schema.enum)) {
      for (const value of schema.enum.slice(0, INDEXED.enumValues))
        if (typeof value === 'string') params.push(value.slice(0, INDEXED.enumValue));
    }
    if (typeof schema.description === 'string') paramDescriptions.push(schema.description.slice(0, INDEXED.paramDescription));
  }
  const texts = { params: params.join(' '), paramDescriptions: paramDescriptions.join(' ') };
  paramTexts.set(inputSchema, texts);
  return texts;
}

/** The text of each field, cut where the prompt cuts it. */
function fieldTexts(tool: ToolDescriptor): Record<Field, string> {
  const name = typeof tool.name === 'string' ? tool.name : '';
  // A site-qualified name (`shop_example__add_to_cart`, lib/agent/site-tool-names.ts): the label has no "__".
  const split = name.indexOf('__');
  return {
    name: split > 0 ? name.slice(split + 2) : name,
    site: split > 0 ? name.slice(0, split) : '',
    title: typeof tool.title === 'string' ? tool.title.slice(0, INDEXED.title) : '',
    // Where a pooled tool runs is its name's site already; the pool's words for it are no words of the tool.
    description: ownDescription(tool, (text) => text.slice(0, MAX_TOOL_DESCRIPTION), false),
    ...paramTextsOf(tool.inputSchema),
  };
}

function indexed(tool: ToolDescriptor): ToolWords {
  const hit = index.get(tool);
  if (hit) return hit;
  const entry = wordsByName(tool);
  index.set(tool, entry);
  return entry;
}

/**
 * A tool's words by its name as given, found when its description, schema object and title are the same: a step's
 * pooled copies are new objects with the same strings as the step before, and finding them this way skips cutting
 * the texts (the pool's lead). Keyed by the name alone, a short string, and the description compared: no long key is
 * built or hashed. Bounded.
 */
const byName = new Map<string, { description: string; inputSchema: unknown; title: unknown; words: ToolWords }>();
const MAX_BY_NAME = 4000;

function wordsByName(tool: ToolDescriptor): ToolWords {
  const name = typeof tool.name === 'string' ? tool.name : '';
  const description = typeof tool.description === 'string' ? tool.description : '';
  const hit = byName.get(name);
  if (hit && hit.description === description && hit.inputSchema === tool.inputSchema && hit.title === tool.title) return hit.words;
  const texts = fieldTexts(tool);
  const words = { own: ownWords(texts, tool.inputSchema), site: siteWords(texts.site) };
  if (byName.size >= MAX_BY_NAME) byName.clear();
  byName.set(name, { description, inputSchema: tool.inputSchema, title: tool.title, words });
  return words;
}

/**
 * A tool's own words (all fields but the site), learnt once however many copies of the tool a task pools (new
 * objects at every step, under site-qualified names, their descriptions led by where they run) and however many
 * tabs offer it: per schema object (the parameters' texts are the schema's, paramTextsOf), then by the tool's part of
 * its name, found when its title and description are the same. Bounded.
 */
const bySchema = new WeakMap<object, Map<string, OwnWords>>();
/** The same for tools without a schema object (no parameters). */
const withoutSchema = new Map<string, OwnWords>();
/** Tools one schema object is kept for (a page may pass one object to many tools). */
const MAX_PER_SCHEMA = 256;

interface OwnWords {
  title: string;
  description: string;
  words: Indexed;
}

function ownWords(texts: Record<Field, string>, inputSchema: unknown): Indexed {
  let kept = isRecord(inputSchema) ? bySchema.get(inputSchema) : withoutSchema;
  if (!kept) {
    kept = new Map();
    bySchema.set(inputSchema as object, kept);
  }
  const hit = kept.get(texts.name);
  if (hit && hit.title === texts.title && hit.description === texts.description) return hit.words;
  if (kept.size >= (kept === withoutSchema ? MAX_BY_NAME : MAX_PER_SCHEMA)) kept.clear();
  const words = wordsOf(FIELDS.map((field) => (field === 'site' ? '' : texts[field])));
  kept.set(texts.name, { title: texts.title, description: texts.description, words });
  return words;
}

/** A site label's words, in the site field, per label. Bounded. */
const bySite = new Map<string, Indexed>();

function siteWords(site: string): Indexed {
  let found = bySite.get(site);
  if (!found) {
    if (bySite.size >= MAX_BY_NAME) bySite.clear();
    found = wordsOf(FIELDS.map((field) => (field === 'site' ? site : '')));
    bySite.set(site, found);
  }
  return found;
}

/** The words of each field's text (in FIELDS' order), each with the fields it is in. */
function wordsOf(texts: readonly string[]): Indexed {
  const words = new Map<string, number>();
  const lengths: number[] = [];
  for (let f = 0; f < FIELDS.length; f++) {
    const found = fieldWords(texts[f]);
    for (const word of found) words.set(word, (words.get(word) ?? 0) | (1 << f));
    lengths.push(found.length);
  }
  for (const word of joinedNameWords(texts[NAME])) words.set(word, (words.get(word) ?? 0) | (1 << NAME));
  // Its words came through stem in this generation of the vocabulary (boundVocabulary), which added them.
  return { words, lengths, generation: vocabulary.generation };
}

const NAME = FIELDS.indexOf('name');

/**
 * Each two neighbouring words of a tool's name written as one, stemmed: a name splits a compound that people write
 * as one word (`wishList`, `check_out`, `signIn`, `zipCode`), and a request's "wishlist" or "signin" should find it.
 * Not counted in the name's length: they are the name's words again.
 */
function joinedNameWords(name: string): readonly string[] {
  let joined = joinedByName.get(name);
  if (!joined) {
    const raws = splitWords(name);
    const found: string[] = [];
    for (let i = 0; i + 1 < raws.length; i++) {
      const word = stem(raws[i] + raws[i + 1]);
      if (word && !NUMBER.test(word)) found.push(word);
    }
    if (joinedByName.size >= MAX_BY_FIELD_TEXT) joinedByName.clear();
    joined = found;
    joinedByName.set(name, joined);
  }
  return joined;
}

/** The joined words per name text: a tool's name comes again in every tab and pooled copy of it. Bounded. */
const joinedByName = new Map<string, readonly string[]>();

/**
 * Words per field text: a task's tools share many texts (parameter descriptions, a site's names, a tool another tab
 * of the same site offers, a tool whose description alone changed), split and stemmed once. Bounded.
 */
const byFieldText = new Map<string, readonly string[]>();
const MAX_BY_FIELD_TEXT = 8000;

function fieldWords(text: string): readonly string[] {
  if (!text) return [];
  let found = byFieldText.get(text);
  if (!found) {
    if (byFieldText.size >= MAX_BY_FIELD_TEXT) byFieldText.clear();
    found = tokenize(text);
    byFieldText.set(text, found);
  }
  return found;
}

/**
 * Words of a text: split on non-letters, camelCase (also "DOMComponents"), snake_case and letter-digit boundaries
 * (splitWords), lower-cased, stopwords out, Porter-stemmed; a phrase of TASK_PHRASES ("to do", "sign in") adds its
 * one-word form.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const raws = splitWords(text);
  const { byWords, firstWords } = phrases();
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i];
    if (firstWords.has(raw) && i + 1 < raws.length) {
      // A pronoun may stand between a verb and its particle ("send it back", "check me in").
      const phrase =
        byWords.get(`${raw} ${raws[i + 1]}`) ??
        (OBJECT_PRONOUNS.has(raws[i + 1]) && i + 2 < raws.length ? byWords.get(`${raw} ${raws[i + 2]}`) : undefined);
      if (phrase) {
        out.push(phrase);
        // Made by phrases() once, not by stem: added here, for a vocabulary that started afresh since.
        vocabulary.add([phrase]);
      }
    }
    const word = stem(raw);
    if (word) out.push(word);
  }
  return out;
}

/**
 * Object pronouns, which English puts between a phrasal verb and its particle ("send it back", not "send back it"):
 * TASK_PHRASES match across one of them.
 */
const OBJECT_PRONOUNS = new Set(['it', 'them', 'me', 'us', 'him', 'her', 'this', 'that', 'these', 'those', 'everything']);

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

/**
 * Porter's stemmer (the `stemmer` package) over the word's American spelling: the forms of a word meet
 * ("bookings"/"booked"/"book", "favourites"/"favorite"); '' for a word left out (one letter, or a stopword).
 */
function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    found = word.length < 2 || STOPWORDS.has(word) ? '' : stemmer(americanSpelling(word));
    stems.set(word, found);
    if (found) vocabulary.add([found]);
  }
  return found;
}
