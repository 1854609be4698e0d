/**
 * firefox-esr with the extension installed, driven over WebDriver BiDi (puppeteer-core): the Firefox
 * counterpart of tests/e2e/fixtures.ts.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const FIREFOX_BUILD = resolve('.output/firefox-mv3');
const HOOK = resolve('tests/firefox/e2e-hook.js');

export interface FirefoxSession {
  browser: Browser;
  /** The add-on id Firefox installed it under (the manifest's gecko id). */
  extensionId: string;
  /**
   * Opens `url` in a new tab and, through the test hook, the extension's `file` (sidepanel.html, options.html)
   * bound to that tab (`?tab=<id>`) in another. Returns both pages.
   */
  openWithExtensionPage: (url: string, file: string) => Promise<{ page: Page; extensionPage: Page; tabId: number }>;
  close: () => Promise<void>;
}

/**
 * Runs `source` (a function's source text) in `page` with `arg`. Source text, not a function: tsx wraps named
 * functions in a `__name` helper that does not exist in the page.
 */
export function run<T>(page: Page, source: string, arg?: unknown): Promise<T> {
  return page.evaluate(`(${source})(${JSON.stringify(arg ?? null)})`) as Promise<T>;
}

/**
 * Runs `source` (an async function's source text, called with no arguments) in the extension's content-script world
 * of tab `tabId`'s top frame, as a compromised content script could, and returns its JSON-serialisable result. Driven
 * from an extension page (`extensionPage`) with scripting.executeScript, which the test copy of the build may use.
 */
export function runInContentScript<T>(extensionPage: Page, tabId: number, source: string): Promise<T> {
  return run<T>(
    extensionPage,
    `async (tabId) => {
      const [first] = await browser.scripting.executeScript({ target: { tabId }, func: ${source} });
      return first.result;
    }`,
    tabId,
  );
}

/** Polls `probe` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

/** A copy of the build with the test hook added as a second background script. */
function instrumentedCopy(buildDir: string): string {
  const manifestFile = join(buildDir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`no Firefox build in ${buildDir}: run "npx wxt build -b firefox" first`);
  const dir = mkdtempSync(join(tmpdir(), 'webmcp-agent-firefox-ext-'));
  cpSync(buildDir, dir, { recursive: true });
  cpSync(HOOK, join(dir, 'e2e-hook.js'));
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (!Array.isArray(manifest.background?.scripts)) {
    throw new Error('the Firefox manifest has no background.scripts: the test hook needs an event page');
  }
  manifest.background.scripts.push('e2e-hook.js');
  // Test-only: lets the harness run code in a tab's content-script world (the attacker's seat), like the hook itself.
  manifest.permissions = [...new Set([...(manifest.permissions ?? []), 'scripting'])];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

/**
 * Starts firefox-esr headless with the (instrumented) build installed as a temporary add-on. `env` is the browser's
 * environment (what a native-messaging host it starts inherits; HOME decides where it looks for host manifests);
 * `prefs` are Firefox preferences (about:config), for example those of Firefox's own WebMCP.
 */
export async function launchFirefox(
  buildDir = FIREFOX_BUILD,
  env?: Record<string, string>,
  prefs?: Record<string, boolean | number | string>,
): Promise<FirefoxSession> {
  const extensionDir = instrumentedCopy(buildDir);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    ...(env ? { env } : {}),
    ...(prefs ? { extraPrefsFirefox: prefs } : {}),
  });
  try {
    const extensionId = await browser.installExtension(extensionDir);
    const seen = new Set<Page>(await browser.pages());

    const openWithExtensionPage = async (url: string, file: string) => {
      const page = await browser.newPage();
      seen.add(page);
      const target = new URL(url);
      target.searchParams.set('webmcp-e2e-open', file);
      await page.goto(target.href);
      // BiDi reports extension tabs as about:blank: ask each new tab where it really is.
      const extensionPage = await waitFor(`the extension to open ${file}`, async () => {
        for (const candidate of await browser.pages()) {
          if (seen.has(candidate)) continue;
          const href = await run<string>(candidate, '() => location.href').catch(() => '');
          if (href.startsWith('moz-extension://') && href.includes(`/${file}?tab=`)) {
            seen.add(candidate);
            return candidate;
          }
        }
        return undefined;
      });
      await waitFor(`${file} to load`, () => run<boolean>(extensionPage, "() => document.readyState === 'complete'"));
      const tabId = await run<number>(extensionPage, "() => Number(new URLSearchParams(location.search).get('tab'))");
      return { page, extensionPage, tabId };
    };

    return {
      browser,
      extensionId,
      openWithExtensionPage,
      close: async () => {
        await browser.close();
        rmSync(extensionDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser.close();
    rmSync(extensionDir, { recursive: true, force: true });
    throw error;
  }
}
