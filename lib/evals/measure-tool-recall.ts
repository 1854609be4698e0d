import type { EvalCase, ExpectedCallNode } from './eval-types';
import { splitMessages } from './run-eval-cases';
import { poolTaskTools, type TaskTabTools } from '../agent/pool-task-tools';
import { rankingContext } from '../agent/ranking-context';
import { createToolNames, siteLabel } from '../agent/site-tool-names';
import { rankTools } from '../agent/rank-tools';
import type { ToolDescriptor } from '../agent/types';

/** One site for a recall measurement: its tools as the page gives them and its webmcp-evals cases. */
export interface RecallSite {
  /** The site's origin, e.g. `https://shop.example`: pooled names are qualified with it. */
  origin: string;
  /** The page's title, when known: a task's pooled tools say which tab they run in with it (pool-task-tools.ts). */
  title?: string;
  tools: readonly ToolDescriptor[];
  cases: readonly EvalCase[];
}

/**
 * Pooled: the tab the person asks from. The loop lists that tab's tools first (start-task-run.ts), and the ranker
 * keeps the list's order among tools it cannot tell apart.
 * - `own`: the case's own site (eval requests are written as a person on that site would type them);
 * - `other`: the next site's tab (a request about another tab of the task);
 * - `none`: no tab; the sites' tools in corpus order under site-qualified names only, descriptions as the sites
 *   give them and no earlier calls: how recall was measured before the measurement ranked as the loop does.
 */
export type AskedFrom = 'own' | 'other' | 'none';

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
  /** Pooled only: which tab the person asks from (AskedFrom). Default `own`. */
  askedFrom?: AskedFrom;
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
 * The ranker's recall over eval cases, each case ranked as the on-device loop ranks (ranking-context.ts): its
 * request (the last user message) against the tools, with the tools its earlier turns called as recent ones.
 * Pooled, the tools are every site's as a task across tabs gives them to the loop (pool-task-tools.ts: site-qualified
 * names, descriptions led by the tab's site and title, the asking tab's tools first). Every tool the case requires
 * (its expected calls, optional ones left out) is looked up in the ranking. A case whose required tool the site does
 * not have is a mistake in the fixture and throws.
 */
export function measureToolRecall(sites: readonly RecallSite[], options: MeasureOptions): ToolRecall {
  const ks = options.ks ?? [1, 3, 5, 8];
  const missesAt = options.missesAt ?? 8;
  const askedFrom = options.askedFrom ?? 'own';
  const names = createToolNames();
  const nameOf = (i: number, tool: string) => (options.pooled ? names.nameOf({ tabId: i + 1, site: sites[i].origin, tool }) : tool);
  const asking = (i: number) =>
    !options.pooled || askedFrom === 'none' ? undefined : siteLabel(sites[askedFrom === 'own' ? i : (i + 1) % sites.length].origin);
  const candidatesOf = toolLists(sites, options.pooled ? askedFrom : undefined, names);
  const ranks: number[] = [];
  const misses: RecallMiss[] = [];
  let cases = 0;
  for (const [i, site] of sites.entries()) {
    if (options.only && !options.only(site)) continue;
    const candidates = candidatesOf(i);
    for (const [n, evalCase] of site.cases.entries()) {
      const { seed, text } = splitMessages(evalCase.messages);
      // What the loop ranks against, taken from the conversation by the loop's own function.
      const context = rankingContext([...seed, { id: 'request', role: 'user', parts: [{ type: 'text', text }] }]);
      const request = context.request;
      // The case's earlier calls were made on its own site: in a task, under that tab's pooled names.
      const asBefore = askedFrom === 'none' && options.pooled;
      const recent = asBefore ? [] : context.recent.map((tool) => nameOf(i, tool));
      const earlier = asBefore ? '' : context.earlier;
      const here = asking(i);
      const ranking = (options.rank ?? rankTools)(candidates, request, {
        max: candidates.length,
        recent,
        earlier,
        ...(here ? { here } : {}),
      }).map((t) => t.name);
      cases++;
      for (const tool of requiredTools(evalCase.expectedCall ?? [])) {
        if (!site.tools.some((t) => t.name === tool))
          throw new Error(`${site.origin}: eval case ${evalCase.name ?? n + 1} expects ${tool}, which the site does not have.`);
        const rank = ranking.indexOf(nameOf(i, tool)) + 1;
        ranks.push(rank);
        if (rank > missesAt) misses.push({ origin: site.origin, case: evalCase.name ?? `${n + 1}`, request, tool, rank });
      }
    }
  }
  const recallAt: Record<number, number> = {};
  for (const k of ks) recallAt[k] = ranks.length ? ranks.filter((r) => r <= k).length / ranks.length : 0;
  return {
    sites: sites.length,
    tools: options.pooled ? sites.reduce((n, site) => n + site.tools.length, 0) : Math.max(0, ...sites.map((s) => s.tools.length)),
    cases,
    expected: ranks.length,
    recallAt,
    meanReciprocalRank: ranks.length ? ranks.reduce((sum, r) => sum + 1 / r, 0) / ranks.length : 0,
    misses: misses.sort((a, b) => b.rank - a.rank),
  };
}

/** The tools a case of site `i` is ranked against: its site's alone, or all sites' pooled as asked from a tab. */
function toolLists(
  sites: readonly RecallSite[],
  askedFrom: AskedFrom | undefined,
  names: ReturnType<typeof createToolNames>,
): (i: number) => readonly ToolDescriptor[] {
  if (!askedFrom) return (i) => sites[i].tools;
  if (askedFrom === 'none') {
    const pool = sites.flatMap((site, i) =>
      site.tools.map((tool) => ({ ...tool, name: names.nameOf({ tabId: i + 1, site: site.origin, tool: tool.name }) })),
    );
    return () => pool;
  }
  const tabs: TaskTabTools[] = sites.map((site, i) => ({
    tabId: i + 1,
    site: site.origin,
    ...(site.title ? { page: { title: site.title } } : {}),
    tools: site.tools,
  }));
  const pools = new Map<number, ToolDescriptor[]>();
  return (i) => {
    const from = askedFrom === 'own' ? i : (i + 1) % sites.length;
    let pool = pools.get(from);
    if (!pool) {
      pool = poolTaskTools([tabs[from], ...tabs.filter((_, j) => j !== from)], names).tools;
      pools.set(from, pool);
    }
    return pool;
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
