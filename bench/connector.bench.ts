/**
 * The page bridge's costs, printed (no assertions), as the rows of issue 12's table with their targets:
 * - bytes parsed at document_start in every frame (the stubs; before the lazy connector, both content scripts), raw
 *   and gzipped, and the bytes that run in the page's own world where the browser has native WebMCP (a second
 *   browser with --enable-features=WebMCP);
 * - page-load time with the extension vs without, in one browser with the extension switched on and off, as a
 *   ratio (the median of the ratios of blocks of loads run back to back: pairedRatio): a plain page, and a heavy page
 *   (5,000 elements, 20 scripts); and the same ratios for a copy of this build whose stubs are empty (`void 0;`),
 *   the floor of any design that runs a script at document_start, whose spread from run to run is the machine's;
 * - main-thread time the extension adds to a page without tools: from a performance trace of each load, the time
 *   the page's main thread spends in the extension's scripts (see extensionMainThreadTimes);
 * - a tool call's round trip through the extension (service worker → content script → page and back) minus the
 *   same tool called directly in the page, median and p95;
 * - what one tool call costs the agent host in bridge round trips and storage reads (lib/testing/
 *   measure-tool-call-cost.ts, this source only);
 * - on a slow device (the page's CPU slowed 20×), how long after an ordinary page with a frame registered a tool the
 *   router lists it (issue 45's "listed within 2 s"; a busy machine's slow reads once held a frame's next report for
 *   seconds: lib/isolated-world/read-pause-ms.ts).
 * With CONNECTOR_BENCH_BEFORE=<dir of another chrome-mv3 build> (for example main's), every figure is measured for
 * both builds in the same run and printed side by side.
 * Needs the Chrome build: run `npx wxt build` first. Uses the system Chromium, headless, polyfill path (no
 * native WebMCP, so the MAIN-world polyfill is part of what is measured) unless CONNECTOR_BENCH_NATIVE=1.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from '@playwright/test';
import { measureToolCallCost } from '../lib/testing/measure-tool-call-cost';
import { EXTENSION_DIR, extensionReady, findServiceWorker, launchBrowser } from '../tests/e2e/browser';
import { startStaticServer } from '../tests/servers/static-server';
import { waitUntilQuiet } from './browser-processes';

// The service worker's router is `testToolRouter` in this build's test hooks and `testToolRouter` in builds before issue
// 48's names (a BEFORE build): the bench reads either.
const LOADS = Number(process.env.CONNECTOR_BENCH_LOADS ?? 40);
const CALLS = Number(process.env.CONNECTOR_BENCH_CALLS ?? 200);
const NATIVE = process.env.CONNECTOR_BENCH_NATIVE === '1';
const BEFORE = process.env.CONNECTOR_BENCH_BEFORE;
const LATE_LOADS = Number(process.env.CONNECTOR_BENCH_LATE_LOADS ?? 8);
/** CONNECTOR_BENCH_NO_CONTROL=1: skip the load ratios of this build with its stubs emptied (emptyStubsCopy). */
const NO_CONTROL = process.env.CONNECTOR_BENCH_NO_CONTROL === '1';
/** The CPU slowdown of the late-tool figure's page (Chrome DevTools' "low-end mobile" is 6×; this is a busier device). */
const SLOW_CPU_RATE = 20;

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

const ms = (n: number) => `${n < 1 ? n.toFixed(4) : n.toFixed(2)} ms`;

/** A browser with this build (undefined: none, to compare with), ready for pages, on a profile of its own. */
async function launch(
  extensionDir: string | undefined,
  native = NATIVE,
): Promise<{ context: BrowserContext; profile: string; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'bridge-bench-'));
  const browser = await launchBrowser({ extensionDir: extensionDir ?? null, native, profile });
  const close = async () => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  };
  // The page-world stub is registered at run time: pages loaded before that would measure something else.
  if (extensionDir) {
    await extensionReady(browser.context).catch(async (error: unknown) => {
      await close();
      throw error;
    });
  }
  return { context: browser.context, profile, close };
}

/** Loads per block of {@link loadTimesOnOff}: the extension is switched between blocks. */
const BLOCK = 5;
/** Loads after each switch that are not counted: the page's process and caches settle first. */
const WARM_UP = 3;

/**
 * Load times of one page in one browser, with the extension switched on and off (chrome.management, from the
 * browser's own chrome://extensions page) every {@link BLOCK} loads, the side that goes first alternating, so that
 * the machine's drift falls equally on both sides. Navigation start to the end of the load event, from the page's
 * own timing. One browser rather than two side by side: two browsers without any extension differed by up to 8%
 * in plain-page load on this machine, this way an extension with no content scripts measures 0.97–1.00. Leaves
 * the extension on.
 */
async function loadTimesOnOff(
  { context, profile }: { context: BrowserContext; profile: string },
  extensionId: string,
  url: string,
): Promise<{ off: number[]; on: number[] }> {
  const admin = await context.newPage();
  await admin.goto('chrome://extensions');
  const switchTo = async (on: boolean) => {
    await admin.evaluate(
      ([id, enabled]) =>
        new Promise<void>((resolve) =>
          (chrome as unknown as { management: typeof chrome.management }).management.setEnabled(id, enabled, resolve),
        ),
      [extensionId, on] as const,
    );
    if (!on) return;
    // Switched on, the extension starts again: its worker registers the stubs, and creates the offscreen agent host,
    // whose start-up would otherwise be counted against the first loads.
    const worker = await extensionReady(context);
    await worker.evaluate(async () => {
      for (let i = 0; i < 100; i++) {
        if ((await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType] })).length > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    // And until it has settled: the host's start-up (its scripts parsed and run, its settings read) goes on after
    // its document exists, and on two cores it would be counted against the loads of a person's browsing, where the
    // extension has long been running.
    await waitUntilQuiet(profile, 'extension');
  };
  const page = await context.newPage();
  const times = { off: [] as number[], on: [] as number[] };
  for (let block = 0; times.on.length < LOADS || times.off.length < LOADS; block++) {
    for (const side of block % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      await switchTo(side === 'on');
      for (let i = 0; i < WARM_UP; i++) await page.goto(`${url}?warm=${block}${side}${i}`, { waitUntil: 'load' });
      for (let i = 0; i < BLOCK; i++) {
        await page.goto(`${url}?run=${block}${side}${i}`, { waitUntil: 'load' });
        times[side].push(
          await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd),
        );
      }
    }
  }
  await switchTo(true);
  await page.close();
  await admin.close();
  return times;
}

/**
 * With / without, as the median of each block's ratio to the block beside it (the two sides of one pair of blocks
 * run back to back): on a shared machine whose load comes and goes over minutes, a busy spell then weighs on one
 * pair's ratio, not on a whole side's median.
 */
function pairedRatio(times: { off: number[]; on: number[] }): number {
  const ratios: number[] = [];
  for (let at = 0; at + BLOCK <= Math.min(times.on.length, times.off.length); at += BLOCK) {
    ratios.push(stats(times.on.slice(at, at + BLOCK)).median / stats(times.off.slice(at, at + BLOCK)).median);
  }
  return stats(ratios).median;
}

/** A page without tools that is heavy to load: 5,000 elements and 20 scripts (external files). */
function writeHeavyPage(dir: string): void {
  mkdirSync(join(dir, 'heavy'), { recursive: true });
  const rows = Array.from(
    { length: 1_000 },
    (_, i) => `<div class="r"><span>${i}</span><a href="#${i}">item ${i}</a><em>e</em><b>b</b></div>`,
  ).join('\n');
  const scripts = Array.from({ length: 20 }, (_, i) => `<script src="s${i}.js"></script>`).join('\n');
  for (let i = 0; i < 20; i++) {
    writeFileSync(
      join(dir, 'heavy', `s${i}.js`),
      `(() => { let x = 0; for (let i = 0; i < 20000; i++) x += i % ${i + 3}; window.s${i} = x; })();\n`,
    );
  }
  writeFileSync(
    join(dir, 'heavy', 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Heavy</title></head><body><h1>Heavy page</h1>\n${rows}\n${scripts}\n</body></html>`,
  );
}

/** One trace event of the renderer, as Chrome's tracing writes it. */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; scriptName?: string; frame?: string }; beginData?: { url?: string } };
}

/**
 * The page's main-thread time spent in the extension during each load, from a performance trace, overlaps
 * merged, over the load and the idle period after it: Chrome's injection of every content script
 * (ScriptInjection::InjectJs, which includes setting up the extension's isolated world and the objects its scripts
 * touch there), and script evaluations and callbacks (EvaluateScript, FunctionCall) whose script is the
 * extension's. What the extension's scripts cost the page, without the drift of comparing two browsers' totals.
 * Only the two trace categories these live in are recorded: V8's own categories slow every script down while
 * they record.
 */
async function extensionMainThreadTimes(context: BrowserContext, url: string): Promise<number[]> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(url);
  const out: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const events: TraceEvent[] = [];
    const onData = (event: { value: TraceEvent[] }) => events.push(...event.value);
    cdp.on('Tracing.dataCollected', onData);
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,extensions', transferMode: 'ReportEvents' });
    await page.goto(`${url}?trace=${i}`, { waitUntil: 'load' });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 100), { timeout: 1_000 })));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', onData);
    // The loaded page's main thread: where its HTML was parsed. A trace records every process of the browser.
    const parse = events.find((e) => e.name === 'ParseHTML' && JSON.stringify(e.args ?? {}).includes(`trace=${i}`));
    if (!parse) throw new Error(`The trace of load ${i} has no ParseHTML of ${url}: nothing to measure against.`);
    const onPageThread = (e: TraceEvent) => e.pid === parse.pid && e.tid === parse.tid;
    const fromExtension = (e: TraceEvent) => {
      const script = e.args?.data?.url ?? e.args?.data?.scriptName ?? '';
      return script.startsWith('chrome-extension://');
    };
    const spans = events
      .filter(
        (e) =>
          e.ph === 'X' &&
          typeof e.dur === 'number' &&
          onPageThread(e) &&
          (e.name === 'ScriptInjection::InjectJs' || (['EvaluateScript', 'FunctionCall'].includes(e.name) && fromExtension(e))),
      )
      .map((e) => [e.ts, e.ts + (e.dur ?? 0)] as [number, number])
      .sort((x, y) => x[0] - y[0]);
    let total = 0;
    let end = Number.NEGATIVE_INFINITY;
    for (const [start, stop] of spans) {
      if (stop <= end) continue;
      total += stop - Math.max(start, end);
      end = stop;
    }
    out.push(total / 1000);
  }
  await page.close();
  return out;
}

/** A no-op tool call's round trip through the extension, and directly in the page, in ms. */
async function roundTrips(context: BrowserContext, serverUrl: string): Promise<{ direct: number[]; through: number[] }> {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const page = await context.newPage();
  await page.goto(`${serverUrl}/imperative.html`);
  const tabId: number = await sw.evaluate(async (href) => (await chrome.tabs.query({})).find((t) => t.url === href)!.id!, page.url());
  await sw.evaluate(async (t) => {
    for (let i = 0; i < 100; i++) {
      if ((await ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).getTools(t)).tools.length > 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, tabId);
  const direct: number[] = await page.evaluate(async (n) => {
    const mc = (document as any).modelContext;
    const tool = (await mc.getTools()).find((t: any) => t.name === 'returns_number');
    const out: number[] = [];
    // One call is far below the page's clock resolution (100 µs without cross-origin isolation): each sample
    // is the mean of a batch of 500 calls.
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      for (let j = 0; j < 500; j++) await mc.executeTool(tool, {});
      out.push((performance.now() - t0) / 500);
    }
    return out;
  }, CALLS);
  const through: number[] = await sw.evaluate(
    async ([t, n]) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).callTool(t, {
          id: `b${i}`,
          name: 'returns_number',
          input: {},
        });
        out.push(performance.now() - t0);
      }
      return out;
    },
    [tabId, CALLS] as const,
  );
  await page.close();
  return { direct, through };
}

/**
 * Per load of late-tool.html with its CPU slowed: ms from the page's registration of `late` (3 s after load) until
 * the router lists it, polled every 50 ms (Infinity: not within 20 s of it).
 */
async function lateToolLags(context: BrowserContext, serverUrl: string): Promise<number[]> {
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const lags: number[] = [];
  for (let i = 0; i < LATE_LOADS; i++) {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_CPU_RATE });
    await page.goto(`${serverUrl}/late-tool.html?after=3000`);
    const seenAt: number = await sw.evaluate(async (href) => {
      const tabId = (await chrome.tabs.query({})).find((t) => t.url === href)!.id!;
      const router = (globalThis as any).testToolRouter ?? (globalThis as any).toolBridge;
      const until = Date.now() + 23_000;
      while (Date.now() < until) {
        if ((await router.getTools(tabId)).tools.some((t: { originalName: string }) => t.originalName === 'late')) return Date.now();
        await new Promise((r) => setTimeout(r, 50));
      }
      return Number.POSITIVE_INFINITY;
    }, page.url());
    const lateAt: number | undefined = await page.evaluate(() => (window as { lateAt?: number }).lateAt);
    lags.push(lateAt === undefined ? Number.POSITIVE_INFINITY : seenAt - lateAt);
    await page.close();
  }
  return lags;
}

/** The scripts every frame parses at document_start without native WebMCP (this build's stubs, or the old content scripts). */
function injected(dir: string): { raw: number; gzip: number } {
  const lazy = existsSync(join(dir, 'stub.js'));
  const files = lazy ? ['stub.js', 'page-stub.js'] : ['content-scripts/content.js', 'content-scripts/page-world.js'];
  const bytes = files.map((f) => readFileSync(join(dir, f)));
  return { raw: bytes.reduce((n, b) => n + b.length, 0), gzip: bytes.reduce((n, b) => n + gzipSync(b).length, 0) };
}

/**
 * Bytes that run in a page's own world at document_start where the browser has native WebMCP: the manifest's MAIN
 * scripts and those registered at run time, once the agent host has told the worker it has WebMCP.
 */
async function nativeMainWorldBytes(dir: string): Promise<number> {
  const browser = await launch(dir, true);
  try {
    const sw = await extensionReady(browser.context);
    const lazy = existsSync(join(dir, 'stub.js'));
    const registered = async () =>
      sw.evaluate(async () =>
        // A build without the scripting permission (before the lazy connector) registers nothing at run time.
        chrome.scripting
          ? (await chrome.scripting.getRegisteredContentScripts()).filter((s) => s.world === 'MAIN').flatMap((s) => s.js ?? [])
          : [],
      );
    let files = await registered();
    // This build unregisters its page-world stub once the host reports native WebMCP.
    for (let i = 0; lazy && i < 100 && files.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      files = await registered();
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      content_scripts?: { js?: string[]; world?: string }[];
    };
    for (const script of manifest.content_scripts ?? []) if (script.world === 'MAIN') files.push(...(script.js ?? []));
    return files.reduce((n, f) => n + readFileSync(join(dir, f)).length, 0);
  } finally {
    await browser.close();
  }
}

/**
 * A copy of a build whose document_start scripts are empty (`void 0;`): every frame still gets the same scripts in
 * the same worlds, so Chrome still injects them and sets up the isolated world, but they do nothing. Its load ratios
 * are the floor of the design (a script must run at document_start for `document.modelContext` to exist before the
 * page registers), and the spread of its runs says how far the ratios move with the machine alone.
 */
function emptyStubsCopy(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'bridge-bench-empty-stubs-'));
  cpSync(dir, copy, { recursive: true });
  for (const stub of ['stub.js', 'page-stub.js', 'native-stub.js']) {
    if (existsSync(join(copy, stub))) writeFileSync(join(copy, stub), 'void 0;\n');
  }
  return copy;
}

/** The load ratios (plain; heavy) of {@link emptyStubsCopy} of `dir`, measured as this build's are. */
async function emptyStubsRatios(dir: string, serverUrl: string): Promise<{ plain: number; heavy: number }> {
  const copy = emptyStubsCopy(dir);
  const withCopy = await launch(copy);
  try {
    const extensionId = new URL((await findServiceWorker(withCopy.context)).url()).host;
    const plain = await loadTimesOnOff(withCopy, extensionId, `${serverUrl}/plain.html`);
    const heavy = await loadTimesOnOff(withCopy, extensionId, `${serverUrl}/bench/heavy/index.html`);
    return { plain: pairedRatio(plain), heavy: pairedRatio(heavy) };
  } finally {
    await withCopy.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

interface Figures {
  bytes: { raw: number; gzip: number };
  nativeMainWorld: number;
  plainRatio: number;
  heavyRatio: number;
  mainThreadMs: number;
  roundTrip: { median: number; p95: number };
  direct: { median: number; p95: number };
  lateToolLag: { median: number; max: number };
  /** This build with its stubs emptied: plain; heavy (this build only, unless CONNECTOR_BENCH_NO_CONTROL=1). */
  emptyStubsRatios?: { plain: number; heavy: number };
}

async function main() {
  const builds: [string, string][] = [...(BEFORE ? ([['before', BEFORE]] as [string, string][]) : []), ['this build', EXTENSION_DIR]];
  console.log(
    `Chromium ${NATIVE ? 'with native WebMCP' : 'without native WebMCP (polyfill path)'}; ${LOADS} loads and ${CALLS} calls per figure.`,
  );
  for (const [name, dir] of builds) console.log(`  ${name}: ${dir}`);
  console.log('');

  const site = mkdtempSync(join(tmpdir(), 'bridge-bench-site-'));
  writeHeavyPage(site);
  const server = await startStaticServer({ '/': 'tests/fixtures/pages', '/bench': site });
  const figures = new Map<string, Figures>();
  try {
    for (const [name, dir] of builds) {
      const withExt = await launch(dir);
      const extensionId = new URL((await findServiceWorker(withExt.context)).url()).host;
      const plain = await loadTimesOnOff(withExt, extensionId, `${server.url}/plain.html`);
      const heavy = await loadTimesOnOff(withExt, extensionId, `${server.url}/bench/heavy/index.html`);
      const [plainWithout, plainWith, heavyWithout, heavyWith] = [plain.off, plain.on, heavy.off, heavy.on].map(stats);
      const mt = stats(await extensionMainThreadTimes(withExt.context, `${server.url}/plain.html`));
      const { direct, through } = await roundTrips(withExt.context, server.url);
      const d = stats(direct);
      const minus = stats(through.map((t) => t - d.median));
      const lags = await lateToolLags(withExt.context, server.url);
      figures.set(name, {
        bytes: injected(dir),
        nativeMainWorld: 0,
        plainRatio: pairedRatio(plain),
        heavyRatio: pairedRatio(heavy),
        mainThreadMs: mt.median,
        roundTrip: minus,
        direct: d,
        lateToolLag: { median: stats(lags).median, max: Math.max(...lags) },
      });
      console.log(
        `${name}: plain load ${ms(plainWithout.median)} → ${ms(plainWith.median)}, heavy load ${ms(heavyWithout.median)} → ${ms(heavyWith.median)}, extension's main-thread time per load ${ms(mt.median)} (p95 ${ms(mt.p95)}), round trip ${ms(stats(through).median)} (direct ${ms(d.median)})`,
      );
      await withExt.close();
    }
    for (const [name, dir] of builds) figures.get(name)!.nativeMainWorld = await nativeMainWorldBytes(dir);
    if (!NO_CONTROL) figures.get('this build')!.emptyStubsRatios = await emptyStubsRatios(EXTENSION_DIR, server.url);
  } finally {
    await server.close();
    rmSync(site, { recursive: true, force: true });
  }

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  // Host side, this source: 20 calls, each counted on its own.
  const cost = await measureToolCallCost(20);
  const perCall = (key: 'messages' | 'reads') => {
    const counts = cost.spans.map((span) => (key === 'messages' ? span.messages.length : span.reads));
    return Math.min(...counts) === Math.max(...counts) ? String(counts[0]) : `${Math.min(...counts)}–${Math.max(...counts)}`;
  };
  const hostCost = `${perCall('messages')} / ${perCall('reads')}`;
  const rows: [string, (f: Figures) => string, string][] = [
    [
      'page load with / without: plain; heavy (5,000 elements, 20 scripts)',
      (f) => `${f.plainRatio.toFixed(2)}; ${f.heavyRatio.toFixed(2)}`,
      '≤ 1.05; ≤ 1.02',
    ],
    [
      "  the same, its stubs emptied (the floor; their spread is the machine's)",
      (f) => (f.emptyStubsRatios ? `${f.emptyStubsRatios.plain.toFixed(2)}; ${f.emptyStubsRatios.heavy.toFixed(2)}` : 'not measured'),
      '',
    ],
    ['main-thread time added to a page without tools (trace, median per load)', (f) => ms(f.mainThreadMs), '≤ 1 ms'],
    ['script parsed at document_start per frame, raw / gzip', (f) => `${kb(f.bytes.raw)} / ${kb(f.bytes.gzip)}`, '≤ 7 KB / ≤ 2.8 KB'],
    ['tool round trip minus the direct call, median / p95', (f) => `${ms(f.roundTrip.median)} / ${ms(f.roundTrip.p95)}`, '≤ 5 / ≤ 15 ms'],
    [
      'bridge round trips / storage reads per tool call (host, this source)',
      (f) => (f === figures.get('this build') ? hostCost : 'not measured (old source)'),
      '1 / 0',
    ],
    ["native WebMCP: bytes injected into the page's own world", (f) => `${f.nativeMainWorld} B`, '0'],
    [
      `tool registered 3 s after load, CPU ${SLOW_CPU_RATE}× slower: listed (median / max)`,
      (f) => `${ms(f.lateToolLag.median)} / ${ms(f.lateToolLag.max)}`,
      '≤ 2 s (issue 45)',
    ],
  ];
  console.log('\nIssue 12, figure by figure (medians; the round trip also p95):');
  const header = ['figure'.padEnd(72), ...builds.map(([name]) => name.padEnd(34)), 'target'];
  console.log(`  ${header.join(' ')}`);
  for (const [label, value, target] of rows) {
    console.log(`  ${[label.padEnd(72), ...builds.map(([name]) => value(figures.get(name)!).padEnd(34)), target].join(' ')}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
