/**
 * What the search step (find_tools, lib/agent/find-tools.ts) recovers of the ranker's misses on the kept-out sites
 * (bench/ranker-corpus: every corpus site's tools pooled as a task across tabs gives them to the loop, the request
 * asked on its own site's tab, as measureToolRecall measures). For each kept-out request whose tool the first ranking leaves out at k = 4 and k = 8, the real
 * on-device loop (runLocalAgent, offering k tools) runs with the scripted provider the loop's tests use: the model
 * calls the tool if it is offered, otherwise searches once, then calls the tool if the search put it in the prompt.
 *
 * The tuned sites' misses are measured the same way, beside them, for comparison.
 *
 * The model's query is either the request's own words, or a paraphrase: another request of the corpus that needs the
 * same tool on the same site (another person's words for the same need), when the corpus has one. A miss is
 * recovered when the tool is offered in the step after the search and the model's call to it runs. Prints figures;
 * asserts nothing. Not for tuning the ranker or the search on (the sites are kept out).
 */
import { exampleArguments } from '../lib/local-agent/build-local-system-prompt';
import type { GenerateRequest } from '../lib/agent/local-provider';
import { runLocalAgent } from '../lib/local-agent/run-local-agent';
import { poolTaskTools, type TaskTabTools } from '../lib/agent/pool-task-tools';
import { createToolNames } from '../lib/agent/site-tool-names';
import type { AgentRunRequest, ToolCall, ToolDescriptor } from '../lib/agent/types';
import { measureToolRecall, requiredTools } from '../lib/evals/measure-tool-recall';
import { splitMessages } from '../lib/evals/run-eval-cases';
import { createScriptedProvider } from '../lib/testing/scripted-provider';
import { corpusSites, type KeptOutMiss, keptOutMisses, tunedSites } from './ranker-corpus/corpus';

const call = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const offered = (req: GenerateRequest) => (req.tools ?? []).map((t) => t.name);

/**
 * Every corpus site's tools pooled as measureToolRecall pools them (as a task gives them to the loop, asked on the
 * request's own site's tab: that tab listed first), and each (origin, tool)'s pooled name.
 */
function pool(): { toolsFrom: (origin: string) => ToolDescriptor[]; nameOf: (origin: string, tool: string) => string; size: number } {
  const names = createToolNames();
  const sites = corpusSites();
  const tabs: TaskTabTools[] = sites.map((site, i) => ({
    tabId: i + 1,
    site: site.origin,
    ...(site.title ? { page: { title: site.title } } : {}),
    tools: site.tools,
  }));
  const pools = new Map<string, ToolDescriptor[]>();
  const toolsFrom = (origin: string) => {
    let tools = pools.get(origin);
    if (!tools) {
      const at = sites.findIndex((site) => site.origin === origin);
      tools = poolTaskTools([tabs[at], ...tabs.filter((_, j) => j !== at)], names).tools;
      pools.set(origin, tools);
    }
    return tools;
  };
  const nameOf = (origin: string, tool: string) => {
    const at = sites.findIndex((site) => site.origin === origin);
    return at === -1 ? '' : names.nameOf({ tabId: at + 1, site: origin, tool });
  };
  return { toolsFrom, nameOf, size: tabs.reduce((n, tab) => n + tab.tools.length, 0) };
}

/** The other requests of the same site that need the same tool: each is one paraphrase tried. */
function paraphrasesOf(miss: KeptOutMiss): string[] {
  const site = corpusSites().find((s) => s.origin === miss.origin);
  const out: string[] = [];
  for (const evalCase of site?.cases ?? []) {
    const request = splitMessages(evalCase.messages).text;
    const needs = requiredTools(evalCase.expectedCall ?? []).includes(miss.tool);
    if (needs && request.trim() && request !== miss.request && !out.includes(request)) out.push(request);
  }
  return out;
}

type Outcome = 'recovered' | 'not found' | 'offered at once';

/** One conversation in the real loop: first ranking, at most one search with `query`, then the call. */
async function converse(
  tools: ToolDescriptor[],
  site: string,
  request: string,
  target: ToolDescriptor,
  query: string,
  k: number,
): Promise<Outcome> {
  let searched = false;
  const args = exampleArguments(target.inputSchema);
  const provider = createScriptedProvider([
    (req) => {
      if (offered(req).includes(target.name)) return call(target.name, args);
      searched = true;
      return call('find_tools', { query });
    },
    (req) => (offered(req).includes(target.name) ? call(target.name, args) : 'I found no tool for that.'),
    'Done.',
    'Done.',
  ]);
  const calls: ToolCall[] = [];
  const req: AgentRunRequest = {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: request }] }],
    tools,
    site,
    signal: new AbortController().signal,
    callTool: async (c) => {
      calls.push(c);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  };
  for await (const _ of runLocalAgent(provider, req, { maxTools: k, generateId: () => crypto.randomUUID() })) {
    // The parts themselves are not needed: what ran is in `calls`.
  }
  const ran = calls.some((c) => c.name === target.name);
  if (!searched) return ran ? 'offered at once' : 'not found';
  return ran ? 'recovered' : 'not found';
}

/** The tuned sites' requests the first ranking misses at k, every corpus site's tools pooled (as keptOutMisses). */
function tunedMisses(k: 4 | 8): KeptOutMiss[] {
  const tuned = new Set(tunedSites().map((site) => site.origin));
  const all = corpusSites();
  return measureToolRecall(all, { pooled: true, ks: [k], missesAt: k, only: (site) => tuned.has(site.origin) }).misses.map((m) => ({
    site: all.find((site) => site.origin === m.origin)?.id ?? m.origin,
    ...m,
  }));
}

/** One part's misses at k, each searched for in its own words and in every paraphrase the corpus has. */
async function measure(part: string, misses: KeptOutMiss[], k: 4 | 8, pooled: ReturnType<typeof pool>): Promise<void> {
  const { toolsFrom, nameOf } = pooled;
  const own = { recovered: 0, atOnce: 0 };
  const para = { misses: 0, tried: 0, recovered: 0, missesRecovered: 0 };
  for (const miss of misses) {
    const tools = toolsFrom(miss.origin);
    const target = tools.find((t) => t.name === nameOf(miss.origin, miss.tool));
    if (!target) throw new Error(`${miss.origin}: no pooled tool ${miss.tool}`);
    const outcome = await converse(tools, miss.origin, miss.request, target, miss.request, k);
    if (outcome === 'recovered') own.recovered++;
    if (outcome === 'offered at once') own.atOnce++;
    const paraphrases = paraphrasesOf(miss);
    if (paraphrases.length) para.misses++;
    let any = false;
    for (const paraphrase of paraphrases) {
      para.tried++;
      if ((await converse(tools, miss.origin, miss.request, target, paraphrase, k)) === 'recovered') {
        para.recovered++;
        any = true;
      }
    }
    if (any) para.missesRecovered++;
  }
  const share = (n: number, of: number) => (of ? `${n}/${of} (${((100 * n) / of).toFixed(0)}%)` : '0/0');
  console.log(
    `${part.padEnd(8)} k=${k}: ${misses.length} misses; one search in the request's own words recovers ${share(own.recovered, misses.length)}` +
      `; in a paraphrase (another request for the same tool; ${para.misses} misses have one) ${share(para.recovered, para.tried)} of the searches, ${para.missesRecovered} of those misses by one of them at least` +
      `${own.atOnce ? `; ${own.atOnce} offered at once by the loop` : ''}`,
  );
}

async function main(): Promise<void> {
  const pooled = pool();
  console.log(
    `find_tools: the requests the first ranking misses (${pooled.size} tools of ${corpusSites().length} sites pooled), recovered by one search`,
  );
  for (const k of [4, 8] as const) await measure('kept-out', keptOutMisses(k), k, pooled);
  for (const k of [4, 8] as const) await measure('tuned', tunedMisses(k), k, pooled);
}

await main();
