/**
 * Playwright fixtures: the built extension loaded for real in the system Chromium, headless.
 * Each test gets its own browser profile, the extension id, its service worker, a loopback server for the
 * fixture pages and the demo site, and helpers to open the side panel bound to a page's tab.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, test as base, type Page, type Worker } from '@playwright/test';
import { type StaticServer, startStaticServer } from '../servers/static-server';

export const EXTENSION_DIR = resolve('.output/chrome-mv3');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
}

/** The flags every launch needs on this closed network (docs/platform-notes.md § Chromium under test). */
export function chromiumArgs(extensionDir: string, nativeWebMCP: boolean, extra: string[] = []): string[] {
  return [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
    ...(nativeWebMCP ? ['--enable-features=WebMCP'] : []),
    ...extra,
  ];
}

export const test = base.extend<ExtensionFixtures, ExtensionOptions & { workerServer: StaticServer }>({
  nativeWebMCP: [false, { option: true, scope: 'worker' }],
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
  context: async ({ nativeWebMCP, extraArgs }, use) => {
    const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-e2e-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: chromiumArgs(EXTENSION_DIR, nativeWebMCP, extraArgs),
    });
    await extensionReady(context);
    await use(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
  serviceWorker: async ({ context }, use) => use(await findServiceWorker(context)),
  extensionId: async ({ serviceWorker }, use) => use(new URL(serviceWorker.url()).host),
  tabIdOf: async ({ serviceWorker }, use) =>
    use(async (page) => {
      const url = page.url();
      const id = await serviceWorker.evaluate(async (href) => {
        const tabs = await chrome.tabs.query({});
        return tabs.find((t) => t.url === href)?.id;
      }, url);
      if (id === undefined) throw new Error(`no tab found for ${url}`);
      return id;
    }),
  openSidePanel: async ({ context, extensionId, tabIdOf }, use) =>
    use(async (page) => {
      const tabId = await tabIdOf(page);
      const panel = await context.newPage();
      await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?tab=${tabId}`);
      return panel;
    }),
  openOptions: async ({ context, extensionId }, use) =>
    use(async () => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/options.html`);
      return page;
    }),
});

export const expect = test.expect;

/**
 * The extension's service worker. Keeps asking: on a loaded machine the worker can start before Playwright
 * listens, so a single waitForEvent may miss it and hang the test.
 */
export async function findServiceWorker(context: BrowserContext): Promise<Worker> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const known = context.serviceWorkers()[0];
    if (known) return known;
    const found = await context.waitForEvent('serviceworker', { timeout: 1_000 }).catch(() => undefined);
    if (found) return found;
  }
  throw new Error('The extension service worker did not start within 30 s');
}

/**
 * Waits until the extension is ready for pages: its service worker runs and has registered Chrome's page-world
 * stub (lib/background/sync-page-stub.ts). A page opened before that would have no document.modelContext.
 */
export async function extensionReady(context: BrowserContext): Promise<Worker> {
  const worker = await findServiceWorker(context);
  await worker.evaluate(() => (globalThis as { pageStubReady?: Promise<unknown> }).pageStubReady);
  return worker;
}

/** Ask the content script of one frame of a tab a question, from the service worker. */
export async function messageFrame<T>(sw: Worker, tabId: number, frameId: number, message: unknown): Promise<T> {
  return sw.evaluate(
    ([t, f, m]) => chrome.tabs.sendMessage(t as number, m, { frameId: f as number }),
    [tabId, frameId, message] as const,
  ) as Promise<T>;
}
