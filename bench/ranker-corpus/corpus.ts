/**
 * The ranker's corpus (issue 49): public WebMCP sites' tools with eval requests, split BY SITE into a part the
 * ranker may be tuned on and a part it is only measured on, and BFCL's live_multiple rows. Used by
 * bench/ranker.bench.ts and by anyone who measures what a second look (a tool search) recovers of the kept-out
 * misses (keptOutMisses).
 *
 * The split, fixed before any tuning on this corpus (README.md beside this file):
 * - Tuned: the two demo sites and tests/fixtures/ranker-sites/tuning/ (the ranker was tuned on them before).
 * - Every other site (tests/fixtures/ranker-sites/held-out/ and bench/ranker-corpus/sites/) by a hash of its id:
 *   kept out when the first byte of SHA-256(id) is odd, tuned otherwise. A site added later falls on its side by
 *   the same rule, and no site moves when another is added.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolDescriptor } from '../../lib/agent/types';
import { measureToolRecall, type RecallSite } from '../../lib/evals/measure-tool-recall';
import { parseEvalFile } from '../../lib/evals/parse-eval-file';
import { demoSites } from '../ranker-sites';

const root = new URL('../..', import.meta.url).pathname;

/** A corpus site: an id (its folder's name) beside what the recall measurement reads. */
export interface CorpusSite extends RecallSite {
  id: string;
}

/** Which part of the split a site is in. */
export type CorpusPart = 'tuned' | 'kept-out';

/** Sites the ranker was tuned on before this corpus existed: always in the tuned part. */
const TUNED_BEFORE = new Set(['demo-shop', 'demo-recipes', ...listDirs('tests/fixtures/ranker-sites/tuning')]);

/** The part a site id falls in (module comment). */
export function partOf(id: string): CorpusPart {
  if (TUNED_BEFORE.has(id)) return 'tuned';
  return createHash('sha256').update(id).digest()[0] % 2 === 1 ? 'kept-out' : 'tuned';
}

function listDirs(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function readSiteDir(dir: string, id: string): CorpusSite {
  const site = JSON.parse(readFileSync(join(root, dir, id, 'site.json'), 'utf8')) as {
    origin: string;
    title?: string;
    tools: ToolDescriptor[];
  };
  const parsed = parseEvalFile(readFileSync(join(root, dir, id, 'evals.json'), 'utf8'));
  if (!parsed.ok) throw new Error(`${dir}/${id}/evals.json:\n${parsed.errors.join('\n')}`);
  return { id, origin: site.origin, ...(site.title ? { title: site.title } : {}), tools: site.tools, cases: parsed.cases };
}

let cache: CorpusSite[] | undefined;

/** Every site of the corpus, in a fixed order (ids sorted). */
export function corpusSites(): CorpusSite[] {
  if (!cache) {
    const dirs = ['tests/fixtures/ranker-sites/tuning', 'tests/fixtures/ranker-sites/held-out', 'bench/ranker-corpus/sites'];
    const [shop, recipes] = demoSites();
    cache = [
      { id: 'demo-shop', ...shop },
      { id: 'demo-recipes', ...recipes },
      ...dirs.flatMap((dir) => listDirs(dir).map((id) => readSiteDir(dir, id))),
    ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return cache;
}

/** The sites changes to the ranker may be judged on. */
export function tunedSites(): CorpusSite[] {
  return corpusSites().filter((site) => partOf(site.id) === 'tuned');
}

/** The sites only measured: never look at their misses while tuning the ranker. */
export function keptOutSites(): CorpusSite[] {
  return corpusSites().filter((site) => partOf(site.id) === 'kept-out');
}

/** A kept-out request whose required tool the ranker put below `k` with every corpus site's tools pooled. */
export interface KeptOutMiss {
  site: string;
  origin: string;
  case: string;
  request: string;
  /** The tool's own name on its site. */
  tool: string;
  rank: number;
}

/**
 * The kept-out requests whose tool the ranker does not offer among the first `k` (4 or 8), all corpus sites' tools
 * pooled as a task across tabs gives them to the loop, each request asked on its own site's tab (measureToolRecall's
 * default). For measuring what a second look recovers; not for tuning the ranker.
 */
export function keptOutMisses(k: 4 | 8): KeptOutMiss[] {
  const all = corpusSites();
  const kept = new Set(keptOutSites().map((site) => site.origin));
  const byOrigin = new Map(all.map((site) => [site.origin, site.id]));
  return measureToolRecall(all, { pooled: true, ks: [k], missesAt: k, only: (site) => kept.has(site.origin) }).misses.map((m) => ({
    site: byOrigin.get(m.origin) ?? m.origin,
    ...m,
  }));
}

/** One BFCL live_multiple row: the user's request, the functions offered with it, and the functions it needs. */
export interface BfclRow {
  id: string;
  request: string;
  tools: ToolDescriptor[];
  expected: string[];
}

/**
 * BFCL V4 live_multiple (1,053 rows; bench/ranker-corpus/README.md says where from): each row ranks its own few
 * functions, as one page's tools.
 */
export function bfclLiveMultiple(): BfclRow[] {
  const data = JSON.parse(readFileSync(join(root, 'bench/ranker-corpus/bfcl-live-multiple.json'), 'utf8')) as {
    functions: ToolDescriptor[];
    rows: { id: string; request: string; tools: number[]; expected: string[] }[];
  };
  return data.rows.map((row) => ({ ...row, tools: row.tools.map((i) => data.functions[i]) }));
}
