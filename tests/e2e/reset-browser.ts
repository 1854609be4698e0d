/**
 * Puts a browser that a test used back into the state a fresh launch gives, so the next test of the same Playwright
 * worker can use it (docs/testing.md § One browser per worker). Launching Chromium on a new profile for every test
 * cost about 1 s on an idle two-core machine and 2–3 s on a busy one; this reset costs 0.2–0.5 s.
 *
 * What a test can leave behind, and what takes it away:
 * - pages (tabs, the side panel, the options page): closed, one about:blank kept, as a fresh launch has;
 * - the agent host (the offscreen document, its sessions, the engine Worker): the document is closed;
 * - the service worker's memory (the tool router, the lazy connector's state, anything a test put on its global):
 *   the worker is stopped and started again, as Chrome does to an idle worker, and the next test waits for its
 *   page-world stub exactly as after a launch;
 * - the extension's storage: storage.local, .session and .sync cleared; its origin's IndexedDB, Cache Storage
 *   (downloaded models), localStorage and file systems cleared. One fact is kept: whether the browser has native
 *   WebMCP, as the agent host reported it (`NATIVE_WEBMCP_KEY`). A browser that has run before knows it, and
 *   registers its stubs from it as its worker starts; without it every test of the `native` project would begin
 *   with a first launch's swap of the page-world stub for the native watcher, racing its first page (a frame
 *   loaded then had its tools go unseen: docs/testing.md, "Clean-clone runs with two workers"). That swap is what
 *   {@link extensionReady} waits for after a launch;
 * - what pages kept: every origin the test's pages requested is cleared (localStorage, IndexedDB, caches, cookies,
 *   service workers), and so are the HTTP cache and all cookies;
 * - Playwright's hold on the context: listeners, routes, init scripts and bindings the test added are removed.
 * A test that needs more than this (a first install, a restart on the same profile, its own launch flags) asks for
 * a browser of its own with `test.use({ freshBrowser: true })`.
 */
import type { BrowserContext, CDPSession, Disposable, Page } from '@playwright/test';
import { NATIVE_WEBMCP_KEY } from '../../lib/background/create-stub-sync';

/** What Playwright keeps per context that a test can add to, and how to take it away again. */
export interface ContextGuard {
  /** Removes what the test added since the guard was made. */
  restore(): Promise<void>;
}

type Disposer = () => Promise<unknown>;

/**
 * Starts recording what a test adds to `context` at Playwright's level: event listeners, routes, init scripts and
 * exposed bindings (the last two through the context's own methods, wrapped until {@link ContextGuard.restore}).
 */
export function guardContext(context: BrowserContext): ContextGuard {
  const emitter = context as unknown as {
    eventNames(): (string | symbol)[];
    listeners(event: string | symbol): ((...args: unknown[]) => void)[];
  };
  const before = new Map(emitter.eventNames().map((name) => [name, new Set(emitter.listeners(name))]));
  const disposers: Disposer[] = [];
  const wrapped = ['addInitScript', 'exposeBinding', 'exposeFunction'] as const;
  const originals = new Map<string, unknown>();
  for (const name of wrapped) {
    const original = (context as unknown as Record<string, (...args: unknown[]) => Promise<Disposable>>)[name];
    originals.set(name, original);
    (context as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const disposable = await original.apply(context, args);
      disposers.push(() => disposable.dispose());
      return disposable;
    };
  }
  return {
    async restore() {
      for (const name of wrapped) (context as unknown as Record<string, unknown>)[name] = originals.get(name);
      for (const name of emitter.eventNames()) {
        const kept = before.get(name) ?? new Set();
        for (const listener of emitter.listeners(name)) if (!kept.has(listener)) context.off(name as 'page', listener);
      }
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      for (const dispose of disposers.splice(0).reverse()) await dispose();
      await context.clearPermissions();
      await context.setOffline(false);
      await context.setExtraHTTPHeaders({});
    },
  };
}

/** Closes every page but a new about:blank one, which it returns (a fresh launch starts with one such page). */
async function closeAllPagesButOne(context: BrowserContext): Promise<Page> {
  const blank = await context.newPage();
  await Promise.all(context.pages().map((page) => (page === blank ? undefined : page.close())));
  return blank;
}

/** Storage the Chrome DevTools Protocol clears for the extension's origin: all but its service worker registration. */
const EXTENSION_ORIGIN_STORAGE = 'cookies,file_systems,indexeddb,local_storage,cache_storage,websql,shader_cache';

/** Follows the running status of the service worker registered for `scope`, as the DevTools Protocol reports it. */
function followWorker(cdp: CDPSession, scope: string) {
  const registrations = new Set<string>();
  let status = 'unknown';
  let versionId: string | undefined;
  const waiters = new Set<() => void>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
    for (const r of event.registrations) if (r.scopeURL === scope && !r.isDeleted) registrations.add(r.registrationId);
  });
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const v of event.versions) {
      if (!registrations.has(v.registrationId) || v.status === 'redundant') continue;
      status = v.runningStatus;
      versionId = v.versionId;
    }
    for (const wake of [...waiters]) wake();
  });
  return {
    /** The running version's id. */
    versionId: () => versionId,
    /** Resolves once the worker's status is `wanted`. */
    until: (wanted: 'running' | 'stopped') =>
      new Promise<void>((resolve) => {
        const wake = () => {
          if (status !== wanted) return;
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        wake();
      }),
  };
}

/**
 * Resets `context` as described above. `extensionId` null: a plain browser (the conformance suite's reference),
 * where only pages, origins, the HTTP cache and cookies are reset. Resolves once the extension is ready for pages
 * again (its service worker runs and has registered the stubs the kept fact calls for), as {@link extensionReady} does
 * after a launch.
 */
export async function resetBrowser(context: BrowserContext, extensionId: string | null, origins: Iterable<string>): Promise<void> {
  const extensionOrigin = extensionId === null ? null : `chrome-extension://${extensionId}`;
  const worker = () => context.serviceWorkers().find((w) => w.url().startsWith(`${extensionOrigin}/`));
  // The agent host first, so nothing it would still save lands after storage is cleared.
  await worker()
    ?.evaluate(() => chrome.offscreen.closeDocument())
    .catch(() => undefined);
  const blank = await closeAllPagesButOne(context);
  const cdp = await context.newCDPSession(blank);
  try {
    const scope = `${extensionOrigin}/`;
    const followed = extensionOrigin === null ? undefined : followWorker(cdp, scope);
    if (extensionOrigin !== null && followed) {
      // Enabling replays every registration and version as events. A test may have stopped the worker (as Chrome
      // does to an idle one): start it, to clear storage through it.
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.startWorker', { scopeURL: scope });
      await followed.until('running');
      const sw = worker();
      if (!sw) throw new Error('the extension has no service worker to reset');
      await sw.evaluate(async (kept) => {
        // Closed above, the agent host may have been started again since: by a page's Port that reconnected as
        // the page closed (components/sharing/create-sharing-store.ts wakes the worker), or by this worker's own
        // start. Such a host read the storage about to be cleared and would keep it in memory, living on through
        // the worker's restart: the next test would find the last one's sharing switch on, or its sites shared.
        await (globalThis as { hostStarted?: () => Promise<unknown> }).hostStarted?.();
        const hosts = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as never] });
        if (hosts.length > 0) await chrome.offscreen.closeDocument();
        const known = await chrome.storage.local.get(kept);
        await Promise.all([chrome.storage.local.clear(), chrome.storage.session.clear(), chrome.storage.sync.clear()]);
        await chrome.storage.local.set(known);
      }, NATIVE_WEBMCP_KEY);
      await cdp.send('Storage.clearDataForOrigin', { origin: extensionOrigin, storageTypes: EXTENSION_ORIGIN_STORAGE });
    }
    for (const origin of new Set(origins)) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.clearBrowserCookies');
    if (extensionOrigin !== null && followed) {
      const versionId = followed.versionId();
      if (versionId === undefined) throw new Error('the extension service worker has no version to stop');
      await cdp.send('ServiceWorker.stopWorker', { versionId });
      await followed.until('stopped');
      await cdp.send('ServiceWorker.startWorker', { scopeURL: scope });
      await followed.until('running');
      // Playwright keeps the same Worker object for the restarted worker.
      await worker()?.evaluate(() => (globalThis as { pageStubReady?: Promise<unknown> }).pageStubReady);
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
