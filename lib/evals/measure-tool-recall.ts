import type { EvalCase, ExpectedCallNode } from './eval-types';
import { splitMessages } from './run-eval-cases';
import { createToolNames } from '../agent/site-tool-names';
import { rankTools } from '../agent/rank-tools';
import type { ToolDescriptor } from '../agent/types';

/** One site for a recall measurement: its tools as the page gives them and its webmcp-evals cases. */
export interface RecallSite {
  /** The site's origin, e.g. `https://shop.example`: pooled names are qualified with it. */
  origin: string;
  tools: readonly ToolDescriptor[];
  cases: readonly EvalCase[];
}

/** An expected tool the ranker did not put among the first `k`. */
interface RecallMiss {
  origin: string;
  case: string;
  request: string;
  tool: string;
  /** 1-based place the ranker gave it. */
  rank: number;
}

/** How often the tools eval cases need are among those the on-device ranker offers first. */
export interface ToolRecall {
  sites: number;
  /** Tools ranked against each request: the largest site's count per site, all of them pooled. */
  tools: number;
  cases: number;
  /** (case, required tool) pairs measured. */
  expected: number;
  /** Share of the pairs whose tool ranked within k, per k asked. */
  recallAt: Record<number, number>;
  /** Mean of 1 / rank over the pairs. */
  meanReciprocalRank: number;
  /** The pairs that ranked below `missesAt`, worst first. */
  misses: RecallMiss[];
}

/** Options of {@link measureToolRecall}. */
interface MeasureOptions {
  /**
   * All sites' tools ranked together under site-qualified names (as the desktop bridge names them, as tools of
   * several tabs reach one model); otherwise each site's cases against its own tools only.
   */
  pooled: boolean;
  /** The k's to report. Default 1, 3, 5, 8. */
  ks?: readonly number[];
  /** Pairs ranked below this are listed as misses. Default 8 (what the on-device loop offers). */
  missesAt?: number;
  /** Only these sites' cases are measured (all sites' tools are still ranked when pooled). Default: every site. */
  only?: (site: RecallSite) => boolean;
  /** The ranker measured. Default rankTools (a bench passes an older one to compare). */
  rank?: typeof rankTools;
}

/**
 * The ranker's recall over eval cases: each case's request (its last user message) ranked against the tools, and
 * every tool the case requires (its expected calls, optional ones left out) looked up in the ranking. A case whose
 * required tool the site does not have is a mistake in the fixture and throws.
 */
export function measureToolRecall(sites: readonly RecallSite[], options: MeasureOptions): ToolRecall {
  const ks = options.ks ?? [1, 3, 5, 8];
  const missesAt = options.missesAt ?? 8;
  const names = createToolNames();
  const qualified = sites.map((site, i) =>
    site.tools.map((tool) =>
      options.pooled ? { ...tool, name: names.nameOf({ tabId: i + 1, site: site.origin, tool: tool.name }) } : tool,
    ),
  );
  const pool = qualified.flat();
  const ranks: number[] = [];
  const misses: RecallMiss[] = [];
  let cases = 0;
  for (const [i, site] of sites.entries()) {
    if (options.only && !options.only(site)) continue;
    const candidates = options.pooled ? pool : qualified[i];
    for (const [n, evalCase] of site.cases.entries()) {
      const request = splitMessages(evalCase.messages).text;
      const ranking = (options.rank ?? rankTools)(candidates, request, { max: candidates.length }).map((t) => t.name);
      cases++;
      for (const tool of requiredTools(evalCase.expectedCall ?? [])) {
        const at = site.tools.findIndex((t) => t.name === tool);
        if (at === -1)
          throw new Error(`${site.origin}: eval case ${evalCase.name ?? n + 1} expects ${tool}, which the site does not have.`);
        const rank = ranking.indexOf(qualified[i][at].name) + 1;
        ranks.push(rank);
        if (rank > missesAt) misses.push({ origin: site.origin, case: evalCase.name ?? `${n + 1}`, request, tool, rank });
      }
    }
  }
  const recallAt: Record<number, number> = {};
  for (const k of ks) recallAt[k] = ranks.length ? ranks.filter((r) => r <= k).length / ranks.length : 0;
  return {
    sites: sites.length,
    tools: options.pooled ? pool.length : Math.max(0, ...qualified.map((t) => t.length)),
    cases,
    expected: ranks.length,
    recallAt,
    meanReciprocalRank: ranks.length ? ranks.reduce((sum, r) => sum + 1 / r, 0) / ranks.length : 0,
    misses: misses.sort((a, b) => b.rank - a.rank),
  };
}

/** The distinct tools a case's expected calls require, in order: optional calls and their groups' optional members left out. */
export function requiredTools(nodes: readonly ExpectedCallNode[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly ExpectedCallNode[]) => {
    for (const node of list) {
      if ('functionName' in node) {
        if (!node.optional && !out.includes(node.functionName)) out.push(node.functionName);
      } else walk('unordered' in node ? node.unordered : node.ordered);
    }
  };
  walk(nodes);
  return out;
}
