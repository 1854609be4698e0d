/**
 * Issue 45, item 2: no page can slow the extension down for the others. For each hostile page of
 * tests/fixtures/pages/hostile/, in both modes (polyfill: plain Chromium; native: --enable-features=WebMCP), a fresh
 * browser with the built extension runs an ordinary errand in one tab, first alone (over and over for 4 s), then
 * while the hostile page is open in another tab (10 s, the same loop), then once more after that tab closed, and
 * prints side by side:
 * - the errand's time: the person asks the side panel on the demo shop, the scripted cloud model (the loopback
 *   provider) calls the shop's `get_cart`, and answers; from Send to the answer on screen, the whole path the agent
 *   takes (panel → agent host → model → router → page and back), timed by the panel's own clock (from its handling
 *   of the Enter to the answer in its document). The harness's steps around it (filling the box, the key press,
 *   polling for the text: DevTools round trips through the browser process, which a busy browser process delays as
 *   much as the errand) are printed apart, as "the errand as the harness times it";
 * - a newly registered tool: the shop registers one, and the time until the router (the service worker's
 *   testToolRouter, what the agent host asks) lists it;
 * - the service worker's answer time to a ping (an evaluate in its realm) and the agent host's (the offscreen
 *   document's `host/ping`, sent from the worker), every half second;
 * - memory: the proportional set size (PSS, /proc/PID/smaps_rollup) of the extension's renderer process and of the
 *   whole browser, before the hostile tab opens, the most while it is open, and after it closed: sampled every second
 *   until it is back to its level (the garbage is freed when V8 collects it), at most 30 s, with the seconds it took.
 * - CPU seconds by kind of process (the extension's, pages' renderers, the browser's, GPU and utility) while the hostile
 *   tab is open, and the same page's in a browser without the extension (HOSTILE_BENCH_NO_BARE=1 skips that run): what
 *   the page costs the machine by itself, which no extension can take back, beside what it costs with the extension.
 *   The errand runs again meanwhile (in the extension's browser, the hostile tab there closed): its time beside the
 *   page alone, the share of the slowdown that is the page's own load on two cores.
 * - the browser's own pace beside the page, for any extension (HOSTILE_BENCH_NO_BARE=1 skips it too): a minimal
 *   extension in a browser of its own times its API round trip and a page load in another tab, alone and while the
 *   page is open (bench/minimal-extension-pace.ts), printed as ×alone beside the errand's.
 * A first row opens an ordinary page with tools (tests/fixtures/pages/imperative.html) instead: the control, what any
 * other tab costs the errand on this machine. The hostile tab is watched (its tools asked for, as when the panel was opened on it). Two pages also get calls
 * through the router, from the service worker as the agent host's calls arrive there: huge-result.html's tool is
 * called over and over, and never-settle.html's tool a thousand times at once.
 *
 * Targets (issue 45), printed as met or not met, nothing asserted: the errand within 2× its time alone (median, and
 * no errand timed out), the new tool listed within 2 s (every time), memory back to its level after the close (the
 * extension's process and the whole browser each at most 20% over the level before).
 *
 * With HOSTILE_BENCH_BEFORE=<dir of another chrome-mv3 build> (for example main's before issue 45), every page is
 * measured with that build too, just before this one, and both tables are printed.
 *
 * Run: `npm run build`, then `flock /tmp/webmcp-browser.lock npx tsx bench/hostile-load.bench.ts` (or `npm run bench
 * -- hostile`). About 7 minutes on the shared two-core machine. Environment: HOSTILE_BENCH_WINDOW_MS (how long the
 * hostile tab stays open, default 10000), HOSTILE_BENCH_ALONE_MS (the errand alone, default 4000), HOSTILE_BENCH_ONLY (comma-separated page names), HOSTILE_BENCH_MODES
 * (`polyfill,native`), HOSTILE_BENCH_QUERY_<PAGE> (query string for that page, e.g. HOSTILE_BENCH_QUERY_REPORT_FLOOD=frames=4).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { launchBrowser, extensionReady, openSidePanel, tabIdOf } from '../tests/e2e/browser';
import { browserProcesses, closeOrKill, cpuByKind } from './browser-processes';
import { minimalExtensionPace, type Pace } from './minimal-extension-pace';
import { type ProviderServer, startProviderServer } from '../tests/servers/provider-server';
import { type StaticServer, startStaticServer } from '../tests/servers/static-server';

// The service worker's router is `testToolRouter` in this build's test hooks and `toolBridge` in builds before issue
// 48's names (a BEFORE build): the bench reads either.
const WINDOW_MS = Number(process.env.HOSTILE_BENCH_WINDOW_MS ?? 10_000);
/** How long the errand runs alone first, measured the same way. */
const ALONE_MS = Number(process.env.HOSTILE_BENCH_ALONE_MS ?? 4_000);
const ONLY = process.env.HOSTILE_BENCH_ONLY?.split(',').filter(Boolean);
const MODES = (process.env.HOSTILE_BENCH_MODES ?? 'polyfill,native').split(',') as ('polyfill' | 'native')[];
/** How long one errand, one new tool, one ping may take before it counts as not answered. */
const ERRAND_TIMEOUT = 30_000;
const NEW_TOOL_TIMEOUT = 10_000;
const PING_TIMEOUT = 15_000;
/** HOSTILE_BENCH_BEFORE=<dir of another chrome-mv3 build>: each page is measured with that build too, printed before. */
const BEFORE = process.env.HOSTILE_BENCH_BEFORE;
/** HOSTILE_BENCH_NO_BARE=1: skip the run of each page in a browser without the extension. */
const NO_BARE = process.env.HOSTILE_BENCH_NO_BARE === '1';
/** How long memory may take to come back after the hostile tab closed (HOSTILE_BENCH_AFTER_MS). */
const AFTER_MS = Number(process.env.HOSTILE_BENCH_AFTER_MS ?? 30_000);
const API_KEY = 'sk-hostile-bench';

/** What the bench does to a hostile tab beyond opening and watching it. */
type Extra = (sw: Worker, tabId: number, until: number) => Promise<string>;

interface Scenario {
  page: string;
  what: string;
  extra?: Extra;
  /** Said after the close, e.g. how many of the calls settled. */
  afterClose?: (sw: Worker) => Promise<string>;
}

const SCENARIOS: Scenario[] = [
  // The control: what an ordinary page with a tool in the other tab costs the errand.
  { page: 'imperative.html', what: 'an ordinary page with tools (the control)' },
  { page: 'report-flood.html', what: '16 frames × 200 tools of 1.5 KB, re-reported 4×/s' },
  { page: 'register-churn.html', what: 'registers and unregisters 4,000 tools/s' },
  { page: 'huge-schemas.html', what: '4 tools, descriptions and schemas of 2 MB each, one again every second' },
  { page: 'hundred-frames.html', what: '100 same-origin frames × 3 tools' },
  { page: 'huge-result.html', what: 'a 32 MB result, called over and over', extra: callHugeResult },
  {
    page: 'never-settle.html',
    what: '1,000 calls that never settle',
    extra: callNeverSettling,
    afterClose: async (sw) => {
      const settled = await within(
        PING_TIMEOUT,
        sw.evaluate(() => (globalThis as any).hostileBench?.settled as number),
      );
      return `calls settled after the close: ${settled ?? 'no answer'}/1000`;
    },
  },
  { page: 'navigate-loop.html', what: 'replaces itself with its next load every 20 ms' },
];

// ---------------------------------------------------------------------------------------------- small helpers

/** The promise's value, or undefined when it takes longer than `ms` (the promise is left running). */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Milliseconds `work` took, or undefined when it did not finish within `ms`. */
async function timed(ms: number, work: () => Promise<unknown>): Promise<number | undefined> {
  const t0 = performance.now();
  const done = await within(
    ms,
    work().then(() => true),
  );
  return done ? performance.now() - t0 : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hostile page's address, with its HOSTILE_BENCH_QUERY_<PAGE> query if one is set. */
function hostileUrl(server: StaticServer, scenario: Scenario): string {
  const query = process.env[`HOSTILE_BENCH_QUERY_${scenario.page.replace('.html', '').replaceAll('-', '_').toUpperCase()}`];
  return `${server.url}/${scenario.page === 'imperative.html' ? '' : 'hostile/'}${scenario.page}${query ? `?${query}` : ''}`;
}

function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmtMs = (n: number | undefined) => (n === undefined ? '—' : n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const fmtMb = (n: number | undefined) => (n === undefined ? '—' : `${Math.round(n / 1024)}`);

/** Samples that did not answer in time are undefined: "median / max (k timed out)". */
function summary(samples: (number | undefined)[]): string {
  const ok = samples.filter((s): s is number => s !== undefined);
  const lost = samples.length - ok.length;
  const base = ok.length ? `${fmtMs(median(ok))} / ${fmtMs(Math.max(...ok))}` : 'none';
  return lost ? `${base} (${lost} of ${samples.length} no answer)` : base;
}

// ---------------------------------------------------------------------------------------------- memory (/proc)

/** CPU seconds spent by kind of process between two samples of cpuByKind (a process new since `from` counts whole). */
function cpuSpent(from: Map<number, { kind: string; seconds: number }>, to: Map<number, { kind: string; seconds: number }>): string {
  const spent = new Map<string, number>();
  for (const [pid, now] of to) spent.set(now.kind, (spent.get(now.kind) ?? 0) + now.seconds - (from.get(pid)?.seconds ?? 0));
  return ['extension', 'pages', 'browser', 'gpu+utility'].map((kind) => `${kind} ${(spent.get(kind) ?? 0).toFixed(1)} s`).join(', ');
}

function pss(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

interface Memory {
  /** The extension's renderer process(es): its service worker, offscreen agent host and side panel. */
  extension: number;
  browser: number;
}

function memory(profile: string): Memory {
  const processes = browserProcesses(profile);
  let extension = 0;
  let browser = 0;
  for (const p of processes) {
    const kb = pss(p.pid);
    browser += kb;
    if (p.cmdline.includes('--extension-process')) extension += kb;
  }
  return { extension, browser };
}

// ---------------------------------------------------------------------------------------------- the errand

interface Errand {
  shop: Page;
  shopTab: number;
  panel: Page;
  sw: Worker;
  provider: ProviderServer;
  count: number;
  /** Each errand's time as the harness sees it (from before filling the box to the answer found), for the notes. */
  harness: number[];
}

/** Opens the demo shop with the side panel on it, in cloud mode against the loopback provider. */
async function openErrand(
  context: BrowserContext,
  sw: Worker,
  extensionId: string,
  server: StaticServer,
  provider: ProviderServer,
): Promise<Errand> {
  await sw.evaluate(
    ([baseURL, key]) =>
      chrome.storage.local.set({
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL, model: 'gpt-test' },
        'secret.apiKey.openai-compatible': key,
        'settings.apiKeyMask.openai-compatible': 'sk-…ench',
      }),
    [`${provider.url}/v1`, API_KEY] as const,
  );
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  const shopTab = await tabIdOf(sw, shop);
  const panel = await openSidePanel(context, extensionId, shopTab);
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).waitFor({ timeout: 30_000 });
  return { shop, shopTab, panel, sw, provider, count: 0, harness: [] };
}

/**
 * One errand: the person asks, the model reads the cart, the answer shows. Undefined when it did not finish in
 * time; the panel then gets a new chat (and the provider a new script) so the next errand starts clean.
 */
async function runErrand(e: Errand): Promise<number | undefined> {
  const n = ++e.count;
  // Each errand in a new chat, so that every errand is the same errand: in one chat that grows by an errand each
  // time, the later errands (the ones beside the hostile tab) would also carry the longer history.
  if (n > 1) {
    await within(ERRAND_TIMEOUT, e.panel.getByRole('button', { name: 'New chat' }).click({ timeout: 5_000 }));
    await within(
      ERRAND_TIMEOUT,
      e.panel
        .locator('.conversation')
        .getByText(/^Errand \d+ done\.$/)
        .first()
        .waitFor({ state: 'detached' }),
    );
  }
  e.provider.reset();
  e.provider.script({ type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] }, { type: 'reply', text: `Errand ${n} done.` });
  await within(PING_TIMEOUT, e.panel.evaluate(startPanelClock(`Errand ${n} done.`)));
  const took = await timed(ERRAND_TIMEOUT, async () => {
    // Enter sends (as the person may); a click would wait for Playwright's stability checks, which took 2 s in a
    // panel that was not the front tab.
    const box = e.panel.getByRole('textbox', { name: 'Message' });
    await box.fill(`Errand ${n}: what is in my cart?`);
    await box.press('Enter');
    await e.panel.locator('.conversation').getByText(`Errand ${n} done.`).waitFor({ timeout: ERRAND_TIMEOUT });
  });
  if (took === undefined) {
    await within(ERRAND_TIMEOUT, e.panel.getByRole('button', { name: 'Stop' }).click({ timeout: 5_000 }));
    await within(ERRAND_TIMEOUT, e.panel.getByRole('button', { name: 'New chat' }).click({ timeout: 5_000 }));
    return undefined;
  }
  e.harness.push(took);
  return within(PING_TIMEOUT, e.panel.evaluate('globalThis.errandClock?.ms') as Promise<number | undefined>);
}

/**
 * Runs in the panel before an errand: the panel's own clock, from the moment it handles the person's Enter (Send) to
 * the moment the answer's text is in its document, in `errandClock.ms`. What the bench calls the errand's time: the
 * harness's own steps around it (filling the box, pressing the key, polling for the text: a dozen DevTools round trips
 * through the browser process) are not the agent's path, and a page that keeps the browser process busy delays them
 * as much as the errand (both are printed).
 */
// A string, not a function: tsx would wrap the function's inner functions in its __name helper, which the panel lacks.
const startPanelClock = (answer: string) => `(() => {
  const answer = ${JSON.stringify(answer)};
  const clock = {};
  globalThis.errandClock = clock;
  const onKey = (event) => {
    if (event.key !== 'Enter') return;
    clock.sent = performance.now();
    removeEventListener('keydown', onKey, { capture: true });
  };
  addEventListener('keydown', onKey, { capture: true });
  // The whole document, not the conversation's element: a new chat may render that anew.
  const observer = new MutationObserver(() => {
    if (clock.sent === undefined || !document.querySelector('.conversation')?.textContent?.includes(answer)) return;
    clock.ms = performance.now() - clock.sent;
    observer.disconnect();
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** The shop registers a new tool: the time until the router lists it. */
async function newToolListed(e: Errand): Promise<number | undefined> {
  const name = `errand_new_${e.count}_${Date.now()}`;
  return timed(NEW_TOOL_TIMEOUT, async () => {
    // A string, not a function: tsx would wrap the tool's execute in its __name helper, which the page lacks.
    await e.shop.evaluate(
      `document.modelContext.registerTool({ name: ${JSON.stringify(name)}, description: 'A tool the errand adds.', execute: function () { return 'added'; } }); 0`,
    );
    await e.sw.evaluate(
      async ([tab, n, until]) => {
        while (Date.now() < until) {
          const snapshot = await ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).getTools(tab);
          if (snapshot.tools.some((t: { name: string }) => t.name === n)) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      [e.shopTab, name, Date.now() + NEW_TOOL_TIMEOUT] as const,
    );
  });
}

const swPing = (sw: Worker) => timed(PING_TIMEOUT, () => sw.evaluate(() => 0));
const hostPing = (sw: Worker) => timed(PING_TIMEOUT, () => sw.evaluate(() => chrome.runtime.sendMessage({ type: 'host/ping' })));

// ---------------------------------------------------------------------------------------------- the hostile pages' extras

/** Calls huge_result through the router until `until`, one after the other. */
async function callHugeResult(sw: Worker, tabId: number, until: number): Promise<string> {
  await waitForTool(sw, tabId, 'huge_result');
  const sizes: number[] = [];
  let failed = 0;
  while (Date.now() < until) {
    const size = await within(
      ERRAND_TIMEOUT,
      sw.evaluate(async (t) => {
        const output = await ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).callTool(t, {
          id: `huge-${Math.random()}`,
          name: 'huge_result',
          input: {},
        });
        return JSON.stringify(output).length;
      }, tabId),
    );
    if (size === undefined) failed++;
    else sizes.push(size);
  }
  return `${sizes.length} calls answered (${failed} not), output ${sizes.length ? `${Math.round(Math.max(...sizes) / 1024)} KB` : '—'}`;
}

/** Starts a thousand calls of never_settles through the router, and leaves them running. */
async function callNeverSettling(sw: Worker, tabId: number): Promise<string> {
  await waitForTool(sw, tabId, 'never_settles');
  await within(
    PING_TIMEOUT,
    sw.evaluate((t) => {
      const g = globalThis as any;
      g.hostileBench = { settled: 0 };
      for (let i = 0; i < 1000; i++) {
        (g.testToolRouter ?? g.toolBridge)
          .callTool(t, { id: `never-${i}`, name: 'never_settles', input: { n: i } })
          .finally(() => g.hostileBench.settled++)
          .catch(() => {});
      }
    }, tabId),
  );
  return '1,000 calls started';
}

async function waitForTool(sw: Worker, tabId: number, name: string): Promise<void> {
  await within(
    ERRAND_TIMEOUT,
    sw.evaluate(
      async ([t, n, until]) => {
        while (Date.now() < until) {
          if (
            (await ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).getTools(t)).tools.some(
              (x: { name: string }) => x.name === n,
            )
          )
            return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      [tabId, name, Date.now() + ERRAND_TIMEOUT] as const,
    ),
  );
}

// ---------------------------------------------------------------------------------------------- one scenario

interface Row {
  scenario: Scenario;
  errandAlone: (number | undefined)[];
  errandDuring: (number | undefined)[];
  errandAfter: number | undefined;
  /**
   * The errand while the same hostile page is open in a second browser without the extension (HOSTILE_BENCH_NO_BARE=1
   * skips it): what the page alone does to this machine, which no extension can take back.
   */
  errandBeside: (number | undefined)[];
  /** The browser's own pace beside the page, for any extension (minimal-extension-pace.ts; not for a BEFORE build). */
  pace?: Pace;
  toolAlone: (number | undefined)[];
  toolDuring: (number | undefined)[];
  swAlone: (number | undefined)[];
  swDuring: (number | undefined)[];
  hostAlone: (number | undefined)[];
  hostDuring: (number | undefined)[];
  before: Memory;
  during: Memory;
  after: Memory;
  /** Seconds after the errand that followed the close until memory was back (or the last sample, at AFTER_MS). */
  afterSeconds: number;
  notes: string[];
}

/** Pings the worker and the host every half second until `until`. */
async function pingLoop(sw: Worker, until: number, swTimes: (number | undefined)[], hostTimes: (number | undefined)[]) {
  while (Date.now() < until) {
    const next = Date.now() + 500;
    swTimes.push(await swPing(sw));
    hostTimes.push(await hostPing(sw));
    await sleep(Math.max(0, next - Date.now()));
  }
}

/** Errands (each followed by a new tool) one after the other until `until`, with the pings beside them. */
async function errandWindow(
  errand: Errand,
  until: number,
  errands: (number | undefined)[],
  tools: (number | undefined)[],
  swTimes: (number | undefined)[],
  hostTimes: (number | undefined)[],
): Promise<number[]> {
  const pings = pingLoop(errand.sw, until, swTimes, hostTimes);
  const from = errand.harness.length;
  while (Date.now() < until) {
    errands.push(await runErrand(errand));
    tools.push(await newToolListed(errand));
  }
  await pings;
  return errand.harness.slice(from);
}

/** The most memory seen, sampled every second until `until`. */
/** Memory back to its level: at most 20% over `before`, for the extension's process and the whole browser. */
const isBack = (now: Memory, before: Memory) =>
  now.extension > 0 && now.extension <= 1.2 * before.extension && now.browser <= 1.2 * before.browser;

/**
 * Samples memory every second until it is back to its level, for at most AFTER_MS: the garbage a hostile page left
 * in the extension's heaps is freed when V8 collects it, not the moment the tab closes, so the figure says when.
 */
async function memoryBack(profile: string, before: Memory): Promise<{ memory: Memory; seconds: number }> {
  const start = Date.now();
  let now = memory(profile);
  while (!isBack(now, before) && Date.now() - start < AFTER_MS) {
    await sleep(1_000);
    now = memory(profile);
  }
  return { memory: now, seconds: Math.round((Date.now() - start) / 1000) };
}

async function memoryLoop(profile: string, until: number): Promise<Memory> {
  const most = { extension: 0, browser: 0 };
  while (Date.now() < until) {
    const now = memory(profile);
    most.extension = Math.max(most.extension, now.extension);
    most.browser = Math.max(most.browser, now.browser);
    await sleep(1_000);
  }
  return most;
}

async function runScenario(
  scenario: Scenario,
  native: boolean,
  server: StaticServer,
  provider: ProviderServer,
  extensionDir?: string,
): Promise<Row> {
  const profile = mkdtempSync(join(tmpdir(), 'hostile-bench-'));
  const { context, close } = await launchBrowser({ native, profile, ...(extensionDir ? { extensionDir } : {}) });
  try {
    const sw = await extensionReady(context);
    const extensionId = new URL(sw.url()).host;
    const errand = await openErrand(context, sw, extensionId, server, provider);
    const row: Row = {
      scenario,
      errandAlone: [],
      errandDuring: [],
      errandBeside: [],
      errandAfter: undefined,
      toolAlone: [],
      toolDuring: [],
      swAlone: [],
      swDuring: [],
      hostAlone: [],
      hostDuring: [],
      before: { extension: 0, browser: 0 },
      during: { extension: 0, browser: 0 },
      after: { extension: 0, browser: 0 },
      afterSeconds: 0,
      notes: [],
    };
    // Alone: one errand to warm up (not counted), then the same loop as with the hostile tab (errands and new tools,
    // pings beside them), so that both sides are measured alike.
    await runErrand(errand);
    const harnessAlone = await errandWindow(errand, Date.now() + ALONE_MS, row.errandAlone, row.toolAlone, row.swAlone, row.hostAlone);
    await sleep(1_000);
    row.before = memory(profile);

    // The hostile tab, watched; the errand goes on in the shop's tab meanwhile.
    const tabsBefore = await sw.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.id!));
    const hostile = await context.newPage();
    await within(
      ERRAND_TIMEOUT,
      hostile.goto(hostileUrl(server, scenario), {
        waitUntil: 'commit',
      }),
    );
    // The side panel stays in view beside the person's tab: the hostile tab is a background one.
    await within(PING_TIMEOUT, errand.panel.bringToFront());
    const until = Date.now() + WINDOW_MS;
    // By difference, not by URL: navigate-loop.html's URL changes every 20 ms.
    const hostileTab = await within(
      PING_TIMEOUT,
      sw.evaluate(async (known) => (await chrome.tabs.query({})).find((t) => !known.includes(t.id!))?.id, tabsBefore),
    );
    if (hostileTab !== undefined)
      void sw
        .evaluate((t) => ((globalThis as any).testToolRouter ?? (globalThis as any).toolBridge).getTools(t), hostileTab)
        .catch(() => {});
    const mem = memoryLoop(profile, until);
    const cpuFrom = cpuByKind(profile);
    const extra =
      hostileTab !== undefined && scenario.extra ? within(WINDOW_MS + ERRAND_TIMEOUT, scenario.extra(sw, hostileTab, until)) : undefined;
    const harnessDuring = await errandWindow(errand, until, row.errandDuring, row.toolDuring, row.swDuring, row.hostDuring);
    row.during = await mem;
    row.notes.push(
      `errand as the harness times it (filling the box to the answer found): alone ${fmtMs(median(harnessAlone))} | during ${fmtMs(median(harnessDuring))}`,
    );
    row.notes.push(`CPU while open: ${cpuSpent(cpuFrom, cpuByKind(profile))}`);
    if (extra) row.notes.push((await extra) ?? 'no answer');

    // Closed (through the browser, not the extension, which may be busy): memory back to its level?
    await within(PING_TIMEOUT, hostile.close());
    await sleep(3_000);
    row.errandAfter = await runErrand(errand);
    await sleep(1_000);
    ({ memory: row.after, seconds: row.afterSeconds } = await memoryBack(profile, row.before));
    if (scenario.afterClose) row.notes.push(await scenario.afterClose(sw));
    if (!NO_BARE && extensionDir === undefined) {
      const beside = await openWithoutExtension(scenario, native, server, (until) =>
        errandWindow(errand, until, row.errandBeside, [], [], []),
      );
      row.notes.push(beside);
    }
    return row;
  } finally {
    if (!(await closeOrKill(close, profile))) {
      console.log('  (the browser did not close within 20 s: killed)');
    }
    rmSync(profile, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------- the table

function verdicts(row: Row): { errand: boolean; tool: boolean; memory: boolean } {
  const alone = median(row.errandAlone.filter((x): x is number => x !== undefined));
  const during = row.errandDuring.filter((x): x is number => x !== undefined);
  const errand = alone !== undefined && during.length === row.errandDuring.length && during.length > 0 && median(during)! <= 2 * alone;
  const tool = row.toolDuring.length > 0 && row.toolDuring.every((x) => x !== undefined && x <= 2_000);
  return { errand, tool, memory: isBack(row.after, row.before) };
}

function printTable(mode: string, rows: Row[]): void {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const table = rows.map((row) => {
    const v = verdicts(row);
    const alone = median(row.errandAlone.filter((x): x is number => x !== undefined));
    const during = median(row.errandDuring.filter((x): x is number => x !== undefined));
    const beside = median(row.errandBeside.filter((x): x is number => x !== undefined));
    const times = (x: number | undefined) => (x !== undefined && alone ? `${(x / alone).toFixed(1)}×` : '—');
    return [
      row.scenario.page.replace('.html', ''),
      `${fmtMs(alone)} | ${summary(row.errandDuring)} | ${times(during)} | ${fmtMs(row.errandAfter)} | ${row.errandBeside.length ? `${summary(row.errandBeside)} ${times(beside)}` : '—'}`,
      `${summary(row.toolAlone)} | ${summary(row.toolDuring)}`,
      `${summary(row.swAlone)} | ${summary(row.swDuring)}`,
      `${summary(row.hostAlone)} | ${summary(row.hostDuring)}`,
      row.pace
        ? `${(row.pace.apiRoundTrip.during / row.pace.apiRoundTrip.alone).toFixed(1)}× | ${(row.pace.pageLoad.during / row.pace.pageLoad.alone).toFixed(1)}×`
        : '—',
      `${fmtMb(row.before.extension)} → ${fmtMb(row.during.extension)} → ${fmtMb(row.after.extension)} (${row.afterSeconds} s)`,
      `${fmtMb(row.before.browser)} → ${fmtMb(row.during.browser)} → ${fmtMb(row.after.browser)}`,
      `${mark(v.errand)} / ${mark(v.tool)} / ${mark(v.memory)}`,
    ];
  });
  const header = [
    'hostile page',
    'errand: alone | during (median / max) | ×alone | after close | page without extension (×alone)',
    'new tool listed: alone | during',
    'worker ping: alone | during',
    'host ping: alone | during',
    'minimal extension: API | page load, ×alone',
    'extension PSS MB: before → most → after (s after)',
    'browser PSS MB',
    'errand ≤2× / tool ≤2 s / memory back',
  ];
  console.log(
    `\n${mode}: ${WINDOW_MS / 1000} s with the hostile tab open; times median / max; "no answer": none within ${PING_TIMEOUT / 1000} s (pings), ${NEW_TOOL_TIMEOUT / 1000} s (tool), ${ERRAND_TIMEOUT / 1000} s (errand)`,
  );
  for (let c = 0; c < header.length; c++) {
    const width = Math.max(header[c].length, ...table.map((r) => r[c].length));
    header[c] = header[c].padEnd(width);
    for (const r of table) r[c] = r[c].padEnd(width);
  }
  console.log(header.join('  ‖  '));
  for (const r of table) console.log(r.join('  ‖  '));
  for (const row of rows) for (const note of row.notes) console.log(`  ${row.scenario.page}: ${note}`);
}

/**
 * The same hostile page, open for the same window beside the same shop tab, in a second browser without the
 * extension: what the page costs this machine by itself (its own renderer and the browser's work for it, native
 * WebMCP's included), as CPU by kind, while `meanwhile` runs the errand in the extension's browser. The errand's time
 * there is what the page alone does to it on this machine, to read the errand beside the page in the extension's own
 * browser against.
 */
async function openWithoutExtension(
  scenario: Scenario,
  native: boolean,
  server: StaticServer,
  meanwhile: (until: number) => Promise<void>,
): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'hostile-bench-bare-'));
  const { context, close } = await launchBrowser({ native, profile, extensionDir: null });
  try {
    const shop = await context.newPage();
    await shop.goto(`${server.url}/demo/`);
    const hostile = await context.newPage();
    const from = cpuByKind(profile);
    await within(
      PING_TIMEOUT,
      hostile.goto(hostileUrl(server, scenario), {
        waitUntil: 'commit',
      }),
    );
    await shop.bringToFront();
    await meanwhile(Date.now() + WINDOW_MS);
    return `CPU while open, without the extension: ${cpuSpent(from, cpuByKind(profile))}`;
  } finally {
    await within(20_000, close());
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const server = await startStaticServer({ '/': 'tests/fixtures/pages', '/demo': 'demo' });
  const provider = await startProviderServer({ apiKey: API_KEY });
  const scenarios = SCENARIOS.filter((s) => !ONLY || ONLY.some((o) => s.page.includes(o)));
  console.log(`Hostile pages beside an errand in another tab (issue 45), Chromium ${MODES.join(' and ')}.`);
  try {
    for (const mode of MODES) {
      const rows: Row[] = [];
      const before: Row[] = [];
      for (const scenario of scenarios) {
        const t0 = Date.now();
        // The other build first, then this one, page by page: both meet the machine as it is at that moment.
        if (BEFORE) before.push(await runScenario(scenario, mode === 'native', server, provider, BEFORE));
        const row = await runScenario(scenario, mode === 'native', server, provider);
        if (!NO_BARE) {
          row.pace = await minimalExtensionPace({
            native: mode === 'native',
            plainUrl: `${server.url}/plain.html`,
            hostileUrl: hostileUrl(server, scenario),
            aloneMs: ALONE_MS,
            windowMs: WINDOW_MS,
          });
          const { apiRoundTrip: api, pageLoad: load } = row.pace;
          row.notes.push(
            `a minimal extension beside the page, in its own browser: its API round trip ${fmtMs(api.alone)} → ${fmtMs(api.during)}, a page load in another tab ${fmtMs(load.alone)} → ${fmtMs(load.during)}`,
          );
        }
        rows.push(row);
        console.log(`  ${mode} ${scenario.page} (${scenario.what}): ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
      if (BEFORE) printTable(`${mode}, before (${BEFORE})`, before);
      printTable(BEFORE ? `${mode}, this build` : mode, rows);
    }
  } finally {
    await provider.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
