/**
 * The test infrastructure itself: a test on the worker's shared browser starts from what a fresh launch gives,
 * whatever the test before it left (tests/e2e/reset-browser.ts). The first test leaves something in every place a
 * test can, the second finds none of it; the third shows a test that asks for a browser of its own gets one.
 * The tests run in order, in one worker (playwright.config.ts: fullyParallel false).
 */
import { NATIVE_STUB, NATIVE_WEBMCP_KEY, PAGE_STUB } from '../../lib/background/create-stub-sync';
import { expect, test } from './fixtures';

/** What the first test saw, for the next ones to compare with. */
const left: { offscreenDocument?: string; browserSession?: unknown; context?: import('@playwright/test').BrowserContext } = {};

/** The offscreen agent host's document id (it changes when the document is made anew). */
async function offscreenDocument(sw: import('@playwright/test').Worker): Promise<string | undefined> {
  return sw.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as never] }))[0]?.documentId);
}

test('a test leaves state everywhere it can', async ({ context, server, serviceWorker, extensionId, openSidePanel }) => {
  await expect.poll(() => offscreenDocument(serviceWorker)).toBeDefined();
  left.offscreenDocument = await offscreenDocument(serviceWorker);
  // The extension: its storage areas, its origin's IndexedDB and Cache Storage, the service worker's memory.
  await serviceWorker.evaluate(async () => {
    await chrome.storage.local.set({ 'left.local': 1 });
    // Read by the agent host as it starts again (below, when the side panel wakes it): held in its memory from then.
    await chrome.storage.local.set({ 'mcpBridge.enabled': true });
    await chrome.storage.session.set({ 'left.session': 1 });
    (globalThis as { leftBehind?: boolean }).leftBehind = true;
  });
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.evaluate(async () => {
    localStorage.setItem('left', '1');
    await (await caches.open('left-cache')).put('http://left.test/left', new Response('left'));
    await new Promise((resolve, reject) => {
      const request = indexedDB.open('left-db', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('items');
      request.onsuccess = () => resolve(request.result.close());
      request.onerror = () => reject(request.error);
    });
  });
  // A page: its origin's localStorage (the demo's cart) and a cookie; the side panel open on it.
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  await shop.evaluate(async () => {
    localStorage.setItem('webmcp-demo-shop:cart', JSON.stringify([{ productId: 'ceramic-mug', size: null, quantity: 2 }]));
    await (globalThis as unknown as { cookieStore: { set(name: string, value: string): Promise<void> } }).cookieStore.set('left', '1');
  });
  // The host reads the sharing switch when it starts: this one started before the switch was set, so a new one.
  await serviceWorker.evaluate(() => chrome.offscreen.closeDocument());
  await openSidePanel(shop);
  await expect.poll(() => offscreenDocument(serviceWorker)).toBeDefined();
  left.offscreenDocument = await offscreenDocument(serviceWorker);
  await expect(options.getByLabel('Share tools with desktop agents')).toBeChecked();
  // The agent host's browser session id (lib/storage/conversations.ts), which a reset must not keep: a panel's
  // conversation has needed it by now.
  await expect.poll(() => serviceWorker.evaluate(() => chrome.storage.session.get('browserSession'))).toHaveProperty('browserSession');
  left.browserSession = (await serviceWorker.evaluate(() => chrome.storage.session.get('browserSession'))).browserSession;
  // Playwright's own hold on the context: a listener, an init script.
  context.on('page', () => undefined);
  await context.addInitScript(() => {
    (window as { leftInitScript?: boolean }).leftInitScript = true;
  });
  left.context = context;
  expect(context.pages().length).toBeGreaterThanOrEqual(3);
});

test('the next test on the shared browser finds none of it', async ({ context, server, serviceWorker, extensionId, nativeWebMCP }) => {
  test.skip(left.context === undefined, 'the first test did not run in this worker');
  // The same browser, yet with one blank tab, as a fresh launch has.
  expect(context).toBe(left.context);
  expect(context.pages().map((p) => p.url())).toEqual(['about:blank']);
  expect(await serviceWorker.evaluate(() => chrome.tabs.query({}).then((tabs) => tabs.length))).toBe(1);
  // The service worker was restarted, the storage areas are empty of what the test left.
  expect(await serviceWorker.evaluate(() => (globalThis as { leftBehind?: boolean }).leftBehind ?? false)).toBe(false);
  // storage.local keeps one fact only: whether the browser has WebMCP, as the agent host reported it; and the stub
  // that fact calls for is registered before the test begins (tests/e2e/reset-browser.ts). The new agent host may
  // have recorded its own browser session as it started (lib/storage/conversations.ts), not the last host's.
  const { conversationSessions, ...local } = await serviceWorker.evaluate(() => chrome.storage.local.get(null));
  expect(local).toEqual({ [NATIVE_WEBMCP_KEY]: nativeWebMCP });
  expect(conversationSessions ?? []).not.toContain(left.browserSession);
  expect(await serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id))).toEqual([
    nativeWebMCP ? NATIVE_STUB.id : PAGE_STUB.id,
  ]);
  // What the test left is gone; the new agent host may have written its browser session's id already, as after a
  // launch (lib/storage/conversations.ts, browserSessionId), but not the one the test's host had.
  const session = await serviceWorker.evaluate(() => chrome.storage.session.get(null));
  expect(Object.keys(session).filter((key) => key !== 'browserSession')).toEqual([]);
  if (session.browserSession !== undefined) expect(session.browserSession).not.toBe(left.browserSession);
  // The agent host is a new document.
  await expect.poll(() => offscreenDocument(serviceWorker)).toBeDefined();
  expect(await offscreenDocument(serviceWorker)).not.toBe(left.offscreenDocument);
  // The extension origin's storage is empty.
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  // The new agent host may have opened transformers.js's cache already, as after a launch: it is there, but empty.
  expect(
    await options.evaluate(async () => {
      const names = await caches.keys();
      const entries = await Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).length));
      return {
        local: localStorage.getItem('left'),
        caches: names.filter((name, i) => name !== 'transformers-cache' || entries[i] !== 0),
        databases: (await indexedDB.databases()).map((d) => d.name),
      };
    }),
  ).toEqual({ local: null, caches: [], databases: expect.not.arrayContaining(['left-db']) });
  // Nor does the new agent host hold what the last one read: the sharing switch is off (a host woken during the
  // reset by the closing panel's Port read it before the storage was cleared, and lived on).
  await expect(options.getByLabel('Share tools with desktop agents')).not.toBeChecked();
  // The page's origin kept nothing, and the init script is gone.
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  expect(
    await shop.evaluate(() => ({
      cart: localStorage.getItem('webmcp-demo-shop:cart'),
      cookie: document.cookie,
      initScript: (window as { leftInitScript?: boolean }).leftInitScript ?? false,
    })),
  ).toEqual({ cart: null, cookie: '', initScript: false });
  expect((context as unknown as { listeners(e: string): unknown[] }).listeners('page')).toHaveLength(0);
});

test.describe('a test that asks for a browser of its own', () => {
  test.use({ freshBrowser: true });
  test('gets a new profile: another browser, with only its first blank tab', async ({ context, serviceWorker }) => {
    test.skip(left.context === undefined, 'the first test did not run in this worker');
    expect(context).not.toBe(left.context);
    expect(context.pages().map((p) => p.url())).toEqual(['about:blank']);
    await expect.poll(() => offscreenDocument(serviceWorker)).toBeDefined();
    expect(await offscreenDocument(serviceWorker)).not.toBe(left.offscreenDocument);
    expect(await serviceWorker.evaluate(() => chrome.storage.local.get('left.local'))).toEqual({});
  });
});
