/**
 * The page bridge's costs, printed (no assertions):
 * - bytes injected into every page (both content scripts, raw and gzipped);
 * - page-load time with the extension vs without, side by side, as a ratio;
 * - a tool call's round trip through the extension (service worker → content script → page and back) vs the
 *   same tool called directly in the page, median and p95.
 * Needs the Chrome build: run `npx wxt build` first. Uses the system Chromium, headless, polyfill path (no
 * native WebMCP, so the MAIN-world polyfill is part of what is measured) unless BRIDGE_BENCH_NATIVE=1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium } from '@playwright/test';
import { CHROMIUM, chromiumArgs, EXTENSION_DIR } from '../tests/e2e/fixtures';
import { startStaticServer } from '../tests/servers/static-server';

const LOADS = Number(process.env.BRIDGE_BENCH_LOADS ?? 20);
const CALLS = Number(process.env.BRIDGE_BENCH_CALLS ?? 200);
const NATIVE = process.env.BRIDGE_BENCH_NATIVE === '1';

function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}

const ms = (n: number) => `${n < 1 ? n.toFixed(4) : n.toFixed(2)} ms`;

async function launch(withExtension: boolean): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'bridge-bench-'));
  const args = withExtension
    ? chromiumArgs(EXTENSION_DIR, NATIVE)
    : chromiumArgs(EXTENSION_DIR, NATIVE).filter((a) => !a.startsWith('--load-extension') && !a.startsWith('--disable-extensions-except'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Load times of one page in two browsers, alternating loads (A, B, A, B, …) so that the machine's load drifts
 * equally on both sides. Navigation start to the end of the load event, from the page's own timing.
 */
async function loadTimesSideBySide(a: BrowserContext, b: BrowserContext, url: string): Promise<[number[], number[]]> {
  const pages = [await a.newPage(), await b.newPage()];
  const times: [number[], number[]] = [[], []];
  for (const page of pages) await page.goto(url); // warm-up
  for (let i = 0; i < LOADS; i++) {
    for (const [side, page] of pages.entries()) {
      await page.goto(`${url}?run=${i}`, { waitUntil: 'load' });
      times[side].push(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd));
    }
  }
  for (const page of pages) await page.close();
  return times;
}

async function main() {
  console.log(`Chromium ${NATIVE ? 'with native WebMCP' : 'without native WebMCP (polyfill path)'}; ${LOADS} loads and ${CALLS} calls per figure.\n`);

  const content = readFileSync(join(EXTENSION_DIR, 'content-scripts/content.js'));
  const pageWorld = readFileSync(join(EXTENSION_DIR, 'content-scripts/page-world.js'));
  console.log('Bytes injected into every page (every frame):');
  console.log(`  content.js (isolated world)  ${content.length} B raw, ${gzipSync(content).length} B gzip`);
  console.log(`  page-world.js (MAIN world)   ${pageWorld.length} B raw, ${gzipSync(pageWorld).length} B gzip`);
  console.log(`  total                        ${content.length + pageWorld.length} B raw, ${gzipSync(content).length + gzipSync(pageWorld).length} B gzip\n`);

  const server = await startStaticServer({ '/': 'tests/fixtures/pages' });
  try {
    const without = await launch(false);
    const withExt = await launch(true);
    const sw = withExt.context.serviceWorkers()[0] ?? (await withExt.context.waitForEvent('serviceworker'));
    const [plainWithout, plainWith] = (await loadTimesSideBySide(without.context, withExt.context, `${server.url}/plain.html`)).map(stats);
    const [toolsWithout, toolsWith] = (await loadTimesSideBySide(without.context, withExt.context, `${server.url}/imperative.html`)).map(stats);
    await without.close();
    console.log('Page load (navigation start → load event end), median / p95, loads alternating between the two browsers:');
    console.log('  page                 without extension        with extension           ratio (median)');
    const row = (name: string, a: { median: number; p95: number }, b: { median: number; p95: number }) =>
      console.log(`  ${name.padEnd(20)} ${`${ms(a.median)} / ${ms(a.p95)}`.padEnd(24)} ${`${ms(b.median)} / ${ms(b.p95)}`.padEnd(24)} ${(b.median / a.median).toFixed(2)}×`);
    row('plain.html', plainWithout, plainWith);
    row('imperative.html', toolsWithout, toolsWith);
    if (!NATIVE) console.log('  (without the extension or native WebMCP, imperative.html has no modelContext: its script stops early)');
    console.log('');

    const page = await withExt.context.newPage();
    await page.goto(`${server.url}/imperative.html`);
    const tabId: number = await sw.evaluate(async (href) => (await chrome.tabs.query({})).find((t) => t.url === href)!.id!, page.url());
    await sw.evaluate(async (t) => {
      for (let i = 0; i < 100; i++) {
        if ((await (globalThis as any).toolBridge.getTools(t)).tools.length > 0) return;
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
          await (globalThis as any).toolBridge.callTool(t, { id: `b${i}`, name: 'returns_number', input: {} });
          out.push(performance.now() - t0);
        }
        return out;
      },
      [tabId, CALLS] as const,
    );
    const d = stats(direct);
    const x = stats(through);
    console.log(`Tool call round trip ("returns_number", ${CALLS} calls), median / p95:`);
    console.log(`  directly in the page (executeTool)      ${ms(d.median)} / ${ms(d.p95)}   (each sample: mean of 500 calls)`);
    console.log(`  through the extension (ToolBridge)      ${ms(x.median)} / ${ms(x.p95)}`);
    console.log(`  ratio (median)                          ${(x.median / d.median).toFixed(0)}×`);
    console.log('  (the extension figure includes the 60 ms "tool list settled" quiet period after each call)');
    await withExt.close();
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
