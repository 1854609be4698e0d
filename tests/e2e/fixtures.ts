/**
 * Playwright fixtures: the built extension loaded for real in the system Chromium, headless.
 * Each test gets a browser with the extension, the extension id, its service worker, a loopback server for the
 * fixture pages and the demo site, and helpers to open the side panel bound to a page's tab.
 *
 * The browser is one per Playwright worker (per project), reset after every test that passed (reset-browser.ts), so
 * each test starts from what a fresh launch gives. A test that is about a fresh profile (a first start, a restart),
 * or that needs its own launch flags (`extraArgs`), gets a browser of its own on a new profile: `freshBrowser: true`
 * with test.use, implied by non-empty `extraArgs`. docs/testing.md lists which tests do and why.
 */
import { type BrowserContext, test as base, type Page, type Worker } from '@playwright/test';
import { type StaticServer, startStaticServer } from '../servers/static-server';
import { findServiceWorker, launchBrowser, launchExtension, openSidePanel, tabIdOf } from './browser';
import { guardContext, resetBrowser } from './reset-browser';

// Kept for bench/connector.bench.ts, which imports them from here (it can move to launchExtension from ./browser).
export { CHROMIUM, chromiumArgs, EXTENSION_DIR, extensionReady } from './browser';

export interface ExtensionFixtures {
  context: BrowserContext;
  extensionId: string;
  serviceWorker: Worker;
  server: StaticServer;
  /** The tab id Chrome gave a page. */
  tabIdOf: (page: Page) => Promise<number>;
  /** Opens sidepanel.html?tab=<id> in a new tab, bound to the given page's tab. */
  openSidePanel: (page: Page) => Promise<Page>;
  /** Opens the options page in a new tab. */
  openOptions: () => Promise<Page>;
  /** Extra Chromium flags for this test (set with test.use); a test with any gets a browser of its own. */
  extraArgs: string[];
  /**
   * A browser of its own on a new profile for this test, launched and closed with it (set with test.use), instead of
   * the worker's browser reset between tests. For tests about a fresh install or profile state.
   */
  freshBrowser: boolean;
}

export interface ExtensionOptions {
  /** Launch with --enable-features=WebMCP (Chromium's native document.modelContext). */
  nativeWebMCP: boolean;
  /** Load the built extension (false: the plain browser, the reference the conformance suite compares with). */
  withExtension: boolean;
}

/** The worker's browser, launched when a test first needs it. */
interface SharedBrowser {
  context: BrowserContext;
  /** The extension's id (null: a plain browser). */
  extensionId: string | null;
  /** Every http(s) origin the pages asked something of since the last reset: what the reset clears. */
  origins: Set<string>;
  close: () => Promise<void>;
}

async function launchShared(native: boolean, withExtension: boolean): Promise<SharedBrowser> {
  const launched = withExtension
    ? await launchExtension({ native })
    : { ...(await launchBrowser({ native, extensionDir: null })), extensionId: null };
  const origins = new Set<string>();
  launched.context.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('http:') || url.startsWith('https:')) origins.add(new URL(url).origin);
  });
  return { context: launched.context, extensionId: launched.extensionId, origins, close: launched.close };
}

interface WorkerFixtures extends ExtensionOptions {
  workerServer: StaticServer;
  /** The worker's browser, launched on first use (tests with a browser of their own never launch it). */
  sharedBrowser: () => Promise<SharedBrowser>;
}

export const test = base.extend<ExtensionFixtures, WorkerFixtures>({
  nativeWebMCP: [false, { option: true, scope: 'worker' }],
  withExtension: [true, { option: true, scope: 'worker' }],
  extraArgs: [[], { option: true }],
  freshBrowser: [false, { option: true }],
  workerServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const server = await startStaticServer({ '/': 'tests/fixtures/pages', '/demo': 'demo' });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  sharedBrowser: [
    async ({ nativeWebMCP, withExtension }, use) => {
      let launched: Promise<SharedBrowser> | undefined;
      await use(() => {
        launched ??= launchShared(nativeWebMCP, withExtension);
        return launched;
      });
      await (await launched?.catch(() => undefined))?.close();
    },
    { scope: 'worker' },
  ],
  server: async ({ workerServer }, use) => use(workerServer),
  context: async ({ nativeWebMCP, withExtension, extraArgs, freshBrowser, sharedBrowser, workerServer }, use, testInfo) => {
    if (freshBrowser || extraArgs.length > 0) {
      const { context, close } = withExtension
        ? await launchExtension({ native: nativeWebMCP, extraArgs })
        : await launchBrowser({ native: nativeWebMCP, extraArgs, extensionDir: null });
      await use(context);
      await close();
      return;
    }
    const shared = await sharedBrowser();
    const guard = guardContext(shared.context);
    await use(shared.context);
    // A failed test's worker is thrown away with its browser (Playwright starts a new worker): nothing to reset.
    if (testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped') return;
    await guard.restore();
    await resetBrowser(shared.context, shared.extensionId, [...shared.origins, workerServer.url, workerServer.crossOriginUrl]);
    shared.origins.clear();
  },
  serviceWorker: async ({ context }, use) => use(await findServiceWorker(context)),
  extensionId: async ({ serviceWorker }, use) => use(new URL(serviceWorker.url()).host),
  tabIdOf: async ({ serviceWorker }, use) => use((page) => tabIdOf(serviceWorker, page)),
  openSidePanel: async ({ context, extensionId, serviceWorker }, use) =>
    use(async (page) => openSidePanel(context, extensionId, await tabIdOf(serviceWorker, page))),
  openOptions: async ({ context, extensionId }, use) =>
    use(async () => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/options.html`);
      return page;
    }),
});

export const expect = test.expect;

/** Ask the content script of one frame of a tab a question, from the service worker. */
export async function messageFrame<T>(sw: Worker, tabId: number, frameId: number, message: unknown): Promise<T> {
  return sw.evaluate(([t, f, m]) => chrome.tabs.sendMessage(t as number, m, { frameId: f as number }), [
    tabId,
    frameId,
    message,
  ] as const) as Promise<T>;
}
