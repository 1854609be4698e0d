/**
 * Hundreds of tools stay cheap (issue 49): a task of five tabs holding 300 tools between them (the corpus' sites'
 * tools and BFCL live_multiple functions, bench/ranker-corpus/), under site-qualified names as a task pools them.
 * Pooled by the loop's own poolTaskTools (descriptions led by where each tool runs), the person on the first tab.
 * Prints, today's ranker (frozen) beside the current one: the time rankTools takes over the 300 tools per request
 * (median and p95, warm; and the first request, which indexes every tool, timed over tools it has not seen; and,
 * for the current ranker, the first request when each tab's tools were indexed as its snapshot arrived, as the
 * extension does, with the time that indexing took, and a later step's, whose tools the task pools anew: the warm
 * figure ranks the same objects again, which no step of a task does), and the first model step's prompt with
 * the on-device loop's defaults against the on-device budget (the catalog models' 8,192-token context less the
 * 512-token reply budget), estimated as the audit estimates (lib/audit/estimate-tokens.ts). Asserts nothing.
 */
import { indexTools, rankTools } from '../lib/agent/rank-tools';
import { runLocalAgent } from '../lib/local-agent/run-local-agent';
import { poolTaskTools, type TaskTabTools } from '../lib/agent/pool-task-tools';
import { createToolNames, siteLabel } from '../lib/agent/site-tool-names';
import type { AgentRunRequest, ToolDescriptor } from '../lib/agent/types';
import { estimateTokens } from '../lib/audit/estimate-tokens';
import { splitMessages } from '../lib/evals/run-eval-cases';
import { createScriptedProvider } from '../lib/testing/scripted-provider';
import { bfclLiveMultiple, corpusSites } from './ranker-corpus/corpus';
import { rankToolsBefore } from './ranker-corpus/rank-tools-before';

const TABS = 5;
const TOOLS = 300;
/** The catalog models' context (lib/local/model-catalog.ts) less the default reply budget (create-transformers-provider.ts). */
const PROMPT_BUDGET = 8192 - 512;

/**
 * Five tabs' tools, 300 in all, as each tab's snapshot gives them (a tab may hold several of the corpus' sites here,
 * one entry per site), and pooled as a task gives them to the loop (poolTaskTools: site-qualified names,
 * descriptions led by where each runs).
 */
function taskTabs(): TaskTabTools[] {
  const sites = corpusSites();
  const tabs: TaskTabTools[] = sites.map((site, i) => ({ tabId: (i % TABS) + 1, site: site.origin, tools: [...site.tools] }));
  let count = tabs.reduce((n, tab) => n + tab.tools.length, 0);
  const seen = new Set<string>();
  const extra = Array.from({ length: TABS }, (_, tab) => ({
    tabId: tab + 1,
    site: `https://tab${tab + 1}.example`,
    tools: [] as ToolDescriptor[],
  }));
  for (const row of bfclLiveMultiple()) {
    for (const tool of row.tools) {
      if (count >= TOOLS) break;
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      extra[count % TABS].tools.push({ ...tool, name: tool.name.replace(/[^A-Za-z0-9_-]/g, '_') });
      count++;
    }
  }
  return [...tabs, ...extra];
}

const pool = (tabs: readonly TaskTabTools[]) => poolTaskTools(tabs, createToolNames()).tools.slice(0, TOOLS);

function requests(): string[] {
  return corpusSites().flatMap((site) => site.cases.map((c) => splitMessages(c.messages).text));
}

function stats(samples: number[]): string {
  const sorted = samples.slice().sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(3)} ms  p95 ${at(0.95).toFixed(3)} ms  (n=${samples.length})`;
}

/**
 * How many times the first (indexing) request is timed, each time over tools with text the ranker has not seen (40:
 * on a busy machine the median of fewer moves by a millisecond from run to run).
 */
const FIRST_ROUNDS = 40;

/** The person asks from the first tab: its tools are listed first and favoured (rankTools' here). */
const HERE = siteLabel(corpusSites()[0].origin);

function timeRanking(rank: typeof rankTools, tools: ToolDescriptor[], asks: string[]): { first: string; warm: string } {
  // The code warmed on other tools first (a browser has run the extension's code before a task's first step).
  for (let i = 0; i < 3; i++)
    rank(
      tools.map((t) => ({ ...t, description: `${t.description ?? ''}${' '.repeat(i + 2)}` })),
      asks[i],
      { max: 8 },
    );
  // Fresh objects with new names and descriptions each round: the first request indexes every tool, as a task's
  // first step does (parameters and titles may repeat texts the ranker has seen, as a site's tools do).
  const firsts: number[] = [];
  let fresh = tools;
  for (let round = 0; round < FIRST_ROUNDS; round++) {
    fresh = tools.map((t) => ({ ...t, name: `${t.name}_r${round}`, description: `${t.description ?? ''} round ${round}` }));
    const start = performance.now();
    rank(fresh, asks[round], { max: 8, here: HERE });
    firsts.push(performance.now() - start);
  }
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const ask of asks) {
      const start = performance.now();
      rank(fresh, ask, { max: 8, here: HERE });
      if (round > 0) samples.push(performance.now() - start);
    }
  }
  return { first: stats(firsts), warm: stats(samples) };
}

async function firstPromptTokens(tools: ToolDescriptor[], ask: string): Promise<{ tokens: number; offered: number }> {
  const provider = createScriptedProvider(['Done.'], { fits: (req) => estimateTokens(req) <= PROMPT_BUDGET });
  const req: AgentRunRequest = {
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: ask }] }],
    tools,
    signal: new AbortController().signal,
    callTool: async () => ({ content: [{ type: 'text', text: '{}' }] }),
  };
  for await (const _ of runLocalAgent(provider, req)) {
    // run to the end
  }
  const first = provider.requests[0];
  return { tokens: estimateTokens(first), offered: first.tools?.length ?? 0 };
}

/**
 * The current ranker with the tools indexed as they arrive (indexTools, as each tab's tool view does when the
 * router's snapshot comes, lib/host/create-tab-tools.ts): the time indexing a tab's snapshot takes, summed over the
 * five tabs, and then the first request over the task's pooled copies of them (new objects under site-qualified
 * names, as each step's tool list is).
 */
function timeIndexedOnArrival(tabs: readonly TaskTabTools[], asks: string[]): { arrival: string; first: string; later: string } {
  const arrivals: number[] = [];
  const firsts: number[] = [];
  const laters: number[] = [];
  for (let round = 0; round < FIRST_ROUNDS; round++) {
    // Each tab's snapshot names its tools without the task's site qualifier.
    const fresh = tabs.map((tab) => ({
      ...tab,
      tools: tab.tools.map((t) => ({ ...t, name: `${t.name}_a${round}`, description: `${t.description ?? ''} arrival ${round}` })),
    }));
    let start = performance.now();
    for (const tab of fresh) indexTools(tab.tools);
    arrivals.push(performance.now() - start);
    const pooled = pool(fresh);
    start = performance.now();
    rankTools(pooled, asks[round], { max: 8, here: HERE });
    firsts.push(performance.now() - start);
    // The next step pools the tabs' tools anew (new objects, the same texts), as every step of a task does.
    const next = pool(fresh);
    start = performance.now();
    rankTools(next, asks[round + FIRST_ROUNDS], { max: 8, here: HERE });
    laters.push(performance.now() - start);
  }
  return { arrival: stats(arrivals), first: stats(firsts), later: stats(laters) };
}

const tabs = taskTabs();
const tools = pool(tabs);
const asks = requests();
console.log(`A task of ${TABS} tabs and ${tools.length} tools; ${asks.length} requests (the corpus').`);
for (const [label, rank] of [
  ['before', rankToolsBefore],
  ['after', rankTools],
] as const) {
  const t = timeRanking(rank, tools, asks);
  console.log(`rankTools ${label.padEnd(6)} over ${tools.length} tools: first request (indexing) ${t.first}; then ${t.warm}`);
}
const arrival = timeIndexedOnArrival(tabs, asks);
console.log(
  `rankTools after, tools indexed as each tab's snapshot arrives: indexing the 5 snapshots ${arrival.arrival}; then the first request ${arrival.first}; a later step (the tools pooled anew) ${arrival.later}`,
);
const prompts = await Promise.all(asks.slice(0, 40).map((ask) => firstPromptTokens(tools, ask)));
const tokens = prompts.map((p) => p.tokens).sort((a, b) => a - b);
console.log(
  `first model step's prompt (40 requests): median ${tokens[20]} tokens, largest ${tokens[tokens.length - 1]} (budget ${PROMPT_BUDGET}); tools offered: ${Math.min(...prompts.map((p) => p.offered))}–${Math.max(...prompts.map((p) => p.offered))} of ${tools.length}`,
);

/**
 * The inspector's Tools view with one tab of 300 tools, in happy-dom (slower than a browser; the ratio is what
 * counts): its first render, TOOLS_SHOWN_AT_FIRST rows (before issue 49 it built all 300 at once).
 */
async function toolsViewRender(): Promise<void> {
  const { Window } = await import('happy-dom');
  const win = new Window();
  Object.assign(globalThis, { window: win, document: win.document, Node: win.Node, HTMLElement: win.HTMLElement, Event: win.Event });
  const { h, render } = await import('preact');
  const { ToolsView, TOOLS_SHOWN_AT_FIRST } = await import('../components/inspector/tools-view');
  const { fakeInspectorStore } = await import('../components/inspector/inspector-store-fake');
  const tab = {
    tabId: 1,
    messages: [],
    running: false,
    confirmations: [],
    tools: tools.map((t) => ({ ...t, frameId: 0, origin: 'https://a.example' })),
    toolsKnown: true,
    page: { url: 'https://a.example/' },
  };
  const root = win.document.createElement('div') as unknown as HTMLElement;
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    render(h(ToolsView, { tab, store: fakeInspectorStore(tab) }), root);
    samples.push(performance.now() - start);
    render(null, root);
  }
  console.log(
    `Tools view, 300 tools in happy-dom: first render (${TOOLS_SHOWN_AT_FIRST} rows, the rest behind "Show more") ${stats(samples)}`,
  );
  console.log('Task chooser: one row per open tab (5), with a tool count, whatever the number of tools.');
}
await toolsViewRender();
