/**
 * The one place that starts Chromium with an extension and finds its way around it, shared by the Playwright
 * fixtures (fixtures.ts), the specs that launch their own browser, the benches and the engine's browser check.
 * Imports nothing from the test runner, so a plain `tsx` script can use it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page, type Worker } from 'playwright-core';

/** The built extension (`npx wxt build`). */
export const EXTENSION_DIR = resolve('.output/chrome-mv3');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every launch needs on this closed network (docs/platform-notes.md § Chromium under test). `extensionDir` null: no extension. */
export function chromiumArgs(extensionDir: string | null, nativeWebMCP: boolean, extra: string[] = []): string[] {
  return [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    ...(extensionDir === null ? [] : [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`]),
    ...(nativeWebMCP ? ['--enable-features=WebMCP'] : []),
    ...extra,
  ];
}

export interface LaunchOptions {
  /** Launch with --enable-features=WebMCP (Chromium's native document.modelContext). */
  native?: boolean;
  /** Extra Chromium flags. */
  extraArgs?: string[];
  /** A profile directory the caller owns (and deletes), e.g. to launch twice on it. Default: a fresh one, deleted by `close`. */
  profile?: string;
  /** The unpacked extension to load (null: none, a plain browser to compare with). Default: {@link EXTENSION_DIR}. */
  extensionDir?: string | null;
  /** The Chromium binary. Default: {@link CHROMIUM}. */
  executablePath?: string;
  /** The browser's environment (what a native-messaging host it starts inherits). Default: this process's. */
  env?: Record<string, string>;
}

/** Headless Chromium with one unpacked extension, on a persistent profile. `close` also deletes a profile it made. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const owned = options.profile === undefined;
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'webmcp-agent-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: options.executablePath ?? CHROMIUM,
    headless: true,
    ...(options.env ? { env: options.env } : {}),
    args: chromiumArgs(
      options.extensionDir === undefined ? EXTENSION_DIR : options.extensionDir,
      options.native ?? false,
      options.extraArgs,
    ),
  });
  return {
    context,
    close: async () => {
      await context.close();
      if (owned) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What {@link launchExtension} gives: the browser, the extension's ready service worker and its id. */
export interface LaunchedExtension {
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  /** Closes the browser, and deletes the profile unless the caller gave one. */
  close: () => Promise<void>;
}

/** Launches the browser with the built extension and waits until the extension is ready for pages ({@link extensionReady}). */
export async function launchExtension(options: LaunchOptions = {}): Promise<LaunchedExtension> {
  const { context, close } = await launchBrowser(options);
  const sw = await extensionReady(context).catch(async (error) => {
    await close();
    throw error;
  });
  return { context, sw, extensionId: new URL(sw.url()).host, close };
}

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
 * Waits until the extension is ready for pages: its service worker runs and has registered the stubs its agent host
 * asks for (lib/background/create-stub-sync.ts). A page opened before the first would have no
 * document.modelContext; with native WebMCP, one opened before the host reported would get the page-world stub of
 * a first launch instead of the native watcher every later start registers.
 */
export async function extensionReady(context: BrowserContext): Promise<Worker> {
  const worker = await findServiceWorker(context);
  await worker.evaluate(() => (globalThis as { pageStubReady?: Promise<unknown> }).pageStubReady);
  await worker.evaluate(() => (globalThis as { stubsSettled?: Promise<unknown> }).stubsSettled);
  return worker;
}

/**
 * The id of an extension that has no service worker (the benches' and the browser check's minimal extensions),
 * read from chrome://extensions. Only for a browser with exactly one extension.
 */
export async function extensionIdFromPage(context: BrowserContext): Promise<string> {
  const extensions = await context.newPage();
  await extensions.goto('chrome://extensions');
  const id = await extensions.evaluate(
    () =>
      // chrome://extensions internals: shadow roots all the way down.
      (document.querySelector('extensions-manager') as unknown as { shadowRoot?: ShadowRoot } | null)?.shadowRoot
        ?.querySelector('extensions-item-list')
        ?.shadowRoot?.querySelector('extensions-item')?.id,
  );
  await extensions.close();
  if (!id) throw new Error('no extension listed on chrome://extensions');
  return id;
}

/** The id Chrome gave the tab showing `target` (a page, or its URL), asked from the extension's service worker. */
export async function tabIdOf(sw: Worker, target: Page | string): Promise<number> {
  const url = typeof target === 'string' ? target : target.url();
  const id = await sw.evaluate(async (href) => (await chrome.tabs.query({})).find((t) => t.url === href)?.id, url);
  if (id === undefined) throw new Error(`no tab found for ${url}`);
  return id;
}

/** Opens sidepanel.html?tab=<tabId> in a new tab: the side panel bound to that tab. */
export async function openSidePanel(context: BrowserContext, extensionId: string, tabId: number): Promise<Page> {
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?tab=${tabId}`);
  return panel;
}

/** The card of the call to tool `name` in the conversation, within `scope` (the panel, or a part of it). */
export function toolCard(scope: Page | Locator, name: string): Locator {
  const page = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
  return scope
    .locator('.tool-card')
    .filter({ has: page.locator('.tool-name', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
}

/** Stores `items` in the extension's chrome.storage.local, as its own pages would (settings, grants, sites). */
export async function setStorage(sw: Worker, items: Record<string, unknown>): Promise<void> {
  await sw.evaluate((i) => chrome.storage.local.set(i), items);
}
