/**
 * What the browser itself gives any extension beside a hostile page: a browser with a minimal extension (a service
 * worker that does nothing, no content scripts, one page of its own) and the hostile page in another tab. From its
 * page, the extension's own API round trips (`tabs.query` and `storage.session.get`, each a message to the browser
 * process and back); in a third tab, a page load. Each alone first, then while the hostile page is open.
 *
 * Every step of the agent's errand (panel → agent host → worker → page and back) is such a round trip through the
 * browser process, so where a page keeps that process busy (navigate-loop.html: its loads take about one core of
 * the browser process), this is the pace no extension can beat; the errand's ×alone reads against it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extensionIdFromPage, launchBrowser } from '../tests/e2e/browser';
import { closeOrKill } from './browser-processes';

/** The minimal extension, written to a new folder: the caller removes it. */
function writeMinimalExtension(): string {
  const dir = mkdtempSync(join(tmpdir(), 'minimal-extension-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Minimal extension (bench control)',
      version: '1.0',
      background: { service_worker: 'worker.js' },
      permissions: ['storage'],
    }),
  );
  writeFileSync(join(dir, 'worker.js'), '// Does nothing: the control measures the browser, not an extension.\n');
  writeFileSync(join(dir, 'page.html'), '<!doctype html><meta charset="utf-8"><title>Minimal extension</title>');
  return dir;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export interface Pace {
  /** Median of `tabs.query` + `storage.session.get` from the extension's page, ms. */
  apiRoundTrip: { alone: number; during: number };
  /** Median load time (navigation start to the end of the load event) of a plain page in another tab, ms. */
  pageLoad: { alone: number; during: number };
}

/**
 * Measures {@link Pace} for `aloneMs`, then opens `hostileUrl` in another tab and measures for `windowMs` (sampling
 * every 100 ms, one load and one pair of API calls per sample).
 */
export async function minimalExtensionPace(options: {
  native: boolean;
  plainUrl: string;
  hostileUrl: string;
  aloneMs: number;
  windowMs: number;
}): Promise<Pace> {
  const extensionDir = writeMinimalExtension();
  const profile = mkdtempSync(join(tmpdir(), 'hostile-bench-minimal-'));
  const { context, close } = await launchBrowser({ native: options.native, profile, extensionDir });
  try {
    const id = await extensionIdFromPage(context);
    const extensionPage = await context.newPage();
    await extensionPage.goto(`chrome-extension://${id}/page.html`);
    const other = await context.newPage();
    await other.goto(options.plainUrl);
    const sample = async (until: number) => {
      const api: number[] = [];
      const loads: number[] = [];
      while (Date.now() < until) {
        api.push(
          await extensionPage.evaluate(async () => {
            const t0 = performance.now();
            await chrome.tabs.query({});
            await chrome.storage.session.get('absent');
            return performance.now() - t0;
          }),
        );
        await other.goto(`${options.plainUrl}?pace=${Math.random()}`, { waitUntil: 'load' });
        loads.push(await other.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { api: median(api), load: median(loads) };
    };
    const alone = await sample(Date.now() + options.aloneMs);
    const hostile = await context.newPage();
    // 'commit': a page that replaces itself may never fire the load event Playwright waits for.
    await hostile.goto(options.hostileUrl, { waitUntil: 'commit' }).catch(() => undefined);
    await other.bringToFront();
    const during = await sample(Date.now() + options.windowMs);
    return { apiRoundTrip: { alone: alone.api, during: during.api }, pageLoad: { alone: alone.load, during: during.load } };
  } finally {
    await closeOrKill(close, profile);
    rmSync(profile, { recursive: true, force: true });
    rmSync(extensionDir, { recursive: true, force: true });
  }
}
