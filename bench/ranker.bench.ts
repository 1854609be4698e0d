/**
 * The on-device ranker's recall: how often the tool an eval case needs is among the k tools rankTools offers a
 * small model (the loop offers 8). Per site (each site's cases against its own tools, as today in one tab) beside
 * pooled (every site's tools at once under site-qualified names, as tools of several tabs reach one model), on the
 * tuning sites and on the held-out ones (bench/ranker-sites.ts). Lists the tuning set's misses at 8, and only the
 * count of the held-out set's, so that nobody tunes on them. Prints figures; asserts nothing.
 */
import { measureToolRecall, type RecallSite, type ToolRecall } from '../lib/evals/measure-tool-recall';
import { heldOutSites, tuningSites } from './ranker-sites';

const KS = [1, 3, 5, 8];

function row(label: string, r: ToolRecall): string {
  const recall = KS.map((k) => `@${k} ${r.recallAt[k].toFixed(3)}`).join('  ');
  return `${label.padEnd(20)} ${recall}  MRR ${r.meanReciprocalRank.toFixed(3)}  (${r.sites} sites, ${r.tools} tools, ${r.cases} cases, ${r.expected} expected tools)`;
}

function measure(name: string, sites: RecallSite[], listMisses: boolean): void {
  const perSite = measureToolRecall(sites, { pooled: false, ks: KS });
  const pooled = measureToolRecall(sites, { pooled: true, ks: KS });
  console.log(row(`${name}, per site`, perSite));
  console.log(row(`${name}, pooled`, pooled));
  if (listMisses) {
    for (const m of pooled.misses) console.log(`  pooled miss: ${m.tool} ranked ${m.rank} for "${m.request}" (${m.origin})`);
  } else if (pooled.misses.length) {
    console.log(`  ${pooled.misses.length} pooled miss(es) at 8, not listed: this set is held out.`);
  }
}

console.log('rankTools recall (share of expected tools ranked within k; MRR = mean of 1/rank)');
measure('tuning', tuningSites(), true);
measure('held-out', heldOutSites(), false);
