/**
 * The on-device ranker's recall (issue 49): how often the tool a request needs is among the k tools rankTools
 * offers a small model (the loop offers 8), today's ranker (frozen in bench/ranker-corpus/rank-tools-before.ts)
 * beside the current one. On the corpus of bench/ranker-corpus/ (README there): every site's tools pooled under
 * site-qualified names, as a task across tabs gives the on-device loop its tools (lib/agent/pool-task-tools.ts), each
 * request asked on its own site's tab, from another tab, or by names only (as measured before), measured separately
 * on the requests of the sites tuned on and of the sites kept out of tuning; and on BFCL live_multiple (each row
 * ranking its own functions). RANKER_TUNED_ONLY=1 prints the tuned part only.
 * Lists the tuned sites' misses at 8, and only the count of the kept-out ones, so that nobody tunes on them.
 * Prints figures; asserts nothing.
 */
import { rankTools } from '../lib/agent/rank-tools';
import { type AskedFrom, measureToolRecall, type ToolRecall } from '../lib/evals/measure-tool-recall';
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
  console.log(`${label.padEnd(40)} before ${figures(before)}  |  after ${figures(after)}  (${about})`);
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
/** `RANKER_TUNED_ONLY=1`: the tuned part's figures only, for tuning without a look at the kept-out part. */
const tunedOnly = process.env.RANKER_TUNED_ONLY === '1';
const pooled =
  (part: 'tuned' | 'kept-out', askedFrom: AskedFrom = 'own') =>
  (rank: Rank) =>
    measureToolRecall(all, { pooled: true, askedFrom, ks: KS, rank, only: (site) => partOf((site as { id: string }).id) === part });

console.log('rankTools recall (share of expected tools ranked within k; MRR = mean of 1/rank), before | after');
console.log('Pooled as a task across tabs gives the loop its tools, asked on the case’s own tab, from another tab, or by names only.');
const parts: ('tuned' | 'kept-out')[] = tunedOnly ? ['tuned'] : ['tuned', 'kept-out'];
for (const part of parts) {
  corpusRow(`${part} sites, all pooled, own tab`, pooled(part, 'own'));
  corpusRow(`${part} sites, all pooled, another tab`, pooled(part, 'other'));
  corpusRow(`${part} sites, all pooled, names only`, pooled(part, 'none'));
}
if (!tunedOnly) {
  corpusRow('kept-out sites, pooled alone, own tab', (rank) => measureToolRecall(keptOutSites(), { pooled: true, ks: KS, rank }));
  corpusRow('kept-out sites, per site', (rank) => measureToolRecall(keptOutSites(), { pooled: false, ks: KS, rank }));
}
const [bfclBefore, bfclAfter] = RANKERS.map(([, rank]) => bfclRecall(rank));
console.log(
  `${'BFCL live_multiple, per row'.padEnd(40)} before @4 ${bfclBefore.at4.toFixed(3)}  @8 ${bfclBefore.at8.toFixed(3)}  |  after @4 ${bfclAfter.at4.toFixed(3)}  @8 ${bfclAfter.at8.toFixed(3)}  (${bfclAfter.n} expected)`,
);
/**
 * Per part, tab asked from and k: how many (request, tool) pairs the current ranker brings within k that the old one
 * missed, and how many it loses: with about a hundred pairs a part, one pair moves recall by about 0.01, and this
 * tells a change from a reshuffle.
 */
function moved(part: 'tuned' | 'kept-out', askedFrom: AskedFrom, k: 4 | 8): string {
  const missed = (rank: Rank) =>
    new Set(
      measureToolRecall(all, {
        pooled: true,
        askedFrom,
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
for (const askedFrom of ['own', 'other', 'none'] as const) {
  const label = `pairs moved in / out of k, ${askedFrom === 'other' ? 'another' : askedFrom === 'none' ? 'names' : 'own'}`;
  const row = parts.map((part) => `${part} ${moved(part, askedFrom, 4)}, ${moved(part, askedFrom, 8)}`).join('  |  ');
  console.log(`${label.padEnd(40)} ${row}`);
}
const tunedMisses = pooled('tuned')(rankTools).misses;
for (const m of tunedMisses) console.log(`  tuned miss (own tab): ${m.tool} ranked ${m.rank} for "${m.request}" (${m.origin})`);
if (!tunedOnly) {
  const keptMisses = pooled('kept-out')(rankTools).misses.length;
  if (keptMisses) console.log(`  ${keptMisses} kept-out miss(es) at 8 (own tab), not listed: those sites are kept out of tuning.`);
}
