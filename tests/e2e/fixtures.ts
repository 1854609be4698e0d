/**
 * Playwright fixtures: the built extension loaded for real in the system Chromium, headless.
 * Each test gets its own browser profile, the extension id, its service worker, a loopback server for the
 * fixture pages and the demo site, and helpers to open the side panel bound to a page's tab.
 */
import { type BrowserContext, test as base, type Page, type Worker } from '@playwright/test';
import { type StaticServer, startStaticServer } from '../servers/static-server';
import { findServiceWorker, launchBrowser, launchExtension, openSidePanel, tabIdOf } from './browser';

// Kept for bench/bridge.bench.ts, which imports them from here (it can move to launchExtension from ./browser).
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
  /** Extra Chromium flags for this test (set with test.use). */
  extraArgs: string[];
}

export interface ExtensionOptions {
  /** Launch with --enable-features=WebMCP (Chromium's native document.modelContext). */
  nativeWebMCP: boolean;
  /** Load the built extension (false: the plain browser, the reference the conformance suite compares with). */
  withExtension: boolean;
}

export const test = base.extend<ExtensionFixtures, ExtensionOptions & { workerServer: StaticServer }>({
  nativeWebMCP: [false, { option: true, scope: 'worker' }],
  withExtension: [true, { option: true, scope: 'worker' }],
  extraArgs: [[], { option: true }],
  workerServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const server = await startStaticServer({ '/': 'tests/fixtures/pages', '/demo': 'demo' });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  server: async ({ workerServer }, use) => use(workerServer),
  context: async ({ nativeWebMCP, withExtension, extraArgs }, use) => {
    const { context, close } = withExtension
      ? await launchExtension({ native: nativeWebMCP, extraArgs })
      : await launchBrowser({ native: nativeWebMCP, extraArgs, extensionDir: null });
    await use(context);
    await close();
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
