/**
 * The on-device ranker's recall (issue 49): how often the tool a request needs is among the k tools rankTools
 * offers a small model (the loop offers 8), today's ranker (frozen in bench/ranker-corpus/rank-tools-before.ts)
 * beside the current one. On the corpus of bench/ranker-corpus/ (README there): every site's tools pooled under
 * site-qualified names, as tools of several tabs reach one model, measured separately on the requests of the sites
 * tuned on and of the sites kept out of tuning; and on BFCL live_multiple (each row ranking its own functions).
 * Lists the tuned sites' misses at 8, and only the count of the kept-out ones, so that nobody tunes on them.
 * Prints figures; asserts nothing.
 */
import { rankTools } from '../lib/agent/rank-tools';
import { measureToolRecall, type ToolRecall } from '../lib/evals/measure-tool-recall';
import { bfclLiveMultiple, corpusSites, keptOutSites, partOf } from './ranker-corpus/corpus';
import { rankToolsBefore } from './ranker-corpus/rank-tools-before';

const KS = [1, 4, 8];
type Rank = typeof rankTools;
const RANKERS: [string, Rank][] = [
  ['before', rankToolsBefore],
  ['after', rankTools],
];

function figures(r: ToolRecall): string {
  return `${KS.map((k) => `@${k} ${r.recallAt[k].toFixed(3)}`).join('  ')}  MRR ${r.meanReciprocalRank.toFixed(3)}`;
}

function corpusRow(label: string, measure: (rank: Rank) => ToolRecall): void {
  const [before, after] = RANKERS.map(([, rank]) => measure(rank));
  const about = `${after.sites} sites, ${after.tools} tools, ${after.cases} cases, ${after.expected} expected`;
  console.log(`${label.padEnd(34)} before ${figures(before)}  |  after ${figures(after)}  (${about})`);
}

function bfclRecall(rank: Rank): { at4: number; at8: number; n: number } {
  let at4 = 0;
  let at8 = 0;
  let n = 0;
  for (const row of bfclLiveMultiple()) {
    const ranking = rank(row.tools, row.request, { max: row.tools.length }).map((t) => t.name);
    for (const tool of row.expected) {
      const at = ranking.indexOf(tool) + 1;
      n++;
      if (at > 0 && at <= 4) at4++;
      if (at > 0 && at <= 8) at8++;
    }
  }
  return { at4: at4 / n, at8: at8 / n, n };
}

const all = corpusSites();
const pooled = (part: 'tuned' | 'kept-out') => (rank: Rank) =>
  measureToolRecall(all, { pooled: true, ks: KS, rank, only: (site) => partOf((site as { id: string }).id) === part });

console.log('rankTools recall (share of expected tools ranked within k; MRR = mean of 1/rank), before | after');
corpusRow('tuned sites, all pooled', pooled('tuned'));
corpusRow('kept-out sites, all pooled', pooled('kept-out'));
corpusRow('kept-out sites, pooled alone', (rank) => measureToolRecall(keptOutSites(), { pooled: true, ks: KS, rank }));
corpusRow('kept-out sites, per site', (rank) => measureToolRecall(keptOutSites(), { pooled: false, ks: KS, rank }));
const [bfclBefore, bfclAfter] = RANKERS.map(([, rank]) => bfclRecall(rank));
console.log(
  `${'BFCL live_multiple, per row'.padEnd(34)} before @4 ${bfclBefore.at4.toFixed(3)}  @8 ${bfclBefore.at8.toFixed(3)}  |  after @4 ${bfclAfter.at4.toFixed(3)}  @8 ${bfclAfter.at8.toFixed(3)}  (${bfclAfter.n} expected)`,
);
/**
 * Per part and k: how many (request, tool) pairs the current ranker brings within k that the old one missed, and how
 * many it loses: with about a hundred pairs a part, one pair moves recall by about 0.01, and this tells a change
 * from a reshuffle.
 */
function moved(part: 'tuned' | 'kept-out', k: 4 | 8): string {
  const missed = (rank: Rank) =>
    new Set(
      measureToolRecall(all, {
        pooled: true,
        ks: [k],
        missesAt: k,
        rank,
        only: (site) => partOf((site as { id: string }).id) === part,
      }).misses.map((m) => `${m.origin} ${m.case} ${m.tool}`),
    );
  const [before, after] = RANKERS.map(([, rank]) => missed(rank));
  const gained = [...before].filter((m) => !after.has(m)).length;
  const lost = [...after].filter((m) => !before.has(m)).length;
  return `@${k} +${gained} −${lost}`;
}
console.log(
  `${'pairs moved into / out of the first k'.padEnd(34)} tuned ${moved('tuned', 4)}, ${moved('tuned', 8)}  |  kept-out ${moved('kept-out', 4)}, ${moved('kept-out', 8)}`,
);
const tunedMisses = pooled('tuned')(rankTools).misses;
for (const m of tunedMisses) console.log(`  tuned miss: ${m.tool} ranked ${m.rank} for "${m.request}" (${m.origin})`);
const keptMisses = pooled('kept-out')(rankTools).misses.length;
if (keptMisses) console.log(`  ${keptMisses} kept-out miss(es) at 8, not listed: those sites are kept out of tuning.`);
