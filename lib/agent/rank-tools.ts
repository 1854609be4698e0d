import { cleanText, compactSchema } from './compact-schema';
import { describeToolForModel } from './describe-tool-for-model';
import { MAX_RETURNS_CHARS } from './summarize-output-schema';
import type { ToolDescriptor } from './types';

/** Options of {@link rankTools}. */
interface RankToolsOptions {
  /** Most tools returned. Default 8. */
  max?: number;
  /** Names of tools used recently, most recent first: they get a bonus (a follow-up usually needs them again). */
  recent?: readonly string[];
}

/** Longest tool description kept for the prompt. */
const MAX_TOOL_DESCRIPTION = 320;

// BM25 constants (the usual ones) and field weights: a word in the name says more than one in the description.
const K1 = 1.2;
const B = 0.75;
const WEIGHTS = { name: 3, title: 2, params: 1.5, description: 1 } as const;
/** Bonus for the most recent tool, in BM25 units; older ones get less. About one well-matched word. */
const RECENT_BONUS = 1.5;
/** Credit for a query word that is only a prefix of a tool word ("avail" → "availability"). */
const PREFIX_CREDIT = 0.5;

const STOPWORDS = new Set(
  'a an the to of for and or in on at by with from is are be it this that my me i you your we our can could would please do does did want need some any all what which how get'.split(
    ' ',
  ),
);

interface Indexed {
  /** Weighted term frequencies over all fields. */
  tf: Map<string, number>;
  /** The distinct words, for prefix matches. */
  words: string[];
  /** Weighted length. */
  length: number;
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
 * Lexical relevance (BM25 over name, title, description and parameter names, words split on case and
 * underscores and lightly stemmed), plus a bonus for recently used tools. Tools that match nothing keep the
 * page's order after those that do, so a vague request still sees the page's first tools.
 */
export function rankTools(tools: readonly ToolDescriptor[], query: string, options: RankToolsOptions = {}): ToolDescriptor[] {
  const max = Math.max(0, Math.floor(options.max ?? 8));
  if (max === 0 || tools.length === 0) return [];
  const scores = scoreTools(tools, query, options.recent);
  const order = tools.map((_, i) => i);
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, max).map((i) => compactTool(tools[i]));
}

/**
 * How well each tool matches `query`, in `tools`' order: the BM25 score rankTools sorts by, plus the bonus for
 * recently used tools. Equal scores are what the ranker cannot tell apart (it then keeps the page's order).
 */
export function scoreTools(tools: readonly ToolDescriptor[], query: string, recent: readonly string[] = []): Float64Array {
  const docs = tools.map(indexed);
  const terms = [...new Set(tokenize(query))];
  const scores = new Float64Array(tools.length);
  if (terms.length) {
    const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / docs.length || 1;
    for (const term of terms) {
      // Per tool: full credit for the exact word, partial for a longer word it begins.
      const tfs = docs.map((d) => d.tf.get(term) ?? (term.length >= 3 ? prefixTf(d, term) : 0));
      const df = tfs.reduce((n, tf) => n + (tf > 0 ? 1 : 0), 0);
      if (df === 0) continue;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      for (let i = 0; i < docs.length; i++) {
        const tf = tfs[i];
        if (tf > 0) scores[i] += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * docs[i].length) / avgLength));
      }
    }
  }
  for (let i = 0; i < tools.length; i++) {
    const at = recent.indexOf(tools[i].name);
    if (at !== -1) scores[i] += RECENT_BONUS / (1 + at);
  }
  return scores;
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

function indexed(tool: ToolDescriptor): Indexed {
  const hit = index.get(tool);
  if (hit) return hit;
  const schema = tool.inputSchema as { properties?: unknown } | undefined;
  const params =
    schema && typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties).join(' ') : '';
  const key = `${tool.name}\u0000${tool.title ?? ''}\u0000${tool.description}\u0000${params}`;
  const known = byText.get(key);
  if (known) {
    index.set(tool, known);
    return known;
  }
  const tf = new Map<string, number>();
  let length = 0;
  const add = (text: unknown, weight: number) => {
    if (typeof text !== 'string') return;
    for (const term of tokenize(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
    }
  };
  add(tool.name, WEIGHTS.name);
  add(tool.title, WEIGHTS.title);
  add(tool.description, WEIGHTS.description);
  add(params, WEIGHTS.params);
  const entry: Indexed = { tf, words: [...tf.keys()], length };
  index.set(tool, entry);
  if (byText.size >= MAX_BY_TEXT) byText.clear();
  byText.set(key, entry);
  return entry;
}

function prefixTf(doc: Indexed, term: string): number {
  const first = term.charCodeAt(0);
  let best = 0;
  for (const word of doc.words) {
    if (word.charCodeAt(0) !== first || word.length <= term.length || !word.startsWith(term)) continue;
    const n = doc.tf.get(word) ?? 0;
    if (n > best) best = n;
  }
  return best * PREFIX_CREDIT;
}

/** Words of a text: split on non-letters, camelCase and snake_case, lower-cased, stopwords out, lightly stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const spaced = text.slice(0, 4000).replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** Just enough stemming for "shoes"/"shoe", "searching"/"search", "categories"/"category". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}
