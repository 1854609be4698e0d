/**
 * The lazy connector (issue 12, docs/architecture.md "The lazy connector"): a page without tools gets a small stub and
 * nothing else (on native WebMCP, nothing at all in its own world); the bridge loads at the first sign of WebMCP or
 * when the tab is watched, and nothing registered before that is lost.
 */
import { callTool, expectTools, pendingCall, startCall, textOf, watchTab } from './connector-helpers';
import { expect, messageFrame, test } from './fixtures';

const STUB_KEY = 'Symbol(webmcp-agent.model-context-stub)';

test('a page without tools gets only the stub; the bridge comes when the tab is watched', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
}) => {
  // The agent host tells the worker whether the browser has WebMCP: with it, the page-world stub makes way for the
  // isolated-world watcher of the native modelContext.
  await expect
    .poll(() =>
      serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => [s.id, s.world ?? 'ISOLATED'])),
    )
    .toEqual(nativeWebMCP ? [['webmcp-agent-native-stub', 'ISOLATED']] : [['webmcp-agent-page-stub', 'MAIN']]);
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  const tabId = await tabIdOf(page);
  const inPage = await page.evaluate(() => ({
    kind: typeof (document as any).modelContext,
    symbols: Object.getOwnPropertySymbols(window).map(String),
  }));
  // The page has a modelContext either way: the browser's own, or the stub.
  expect(inPage.kind).toBe('object');
  expect(inPage.symbols.includes(STUB_KEY)).toBe(!nativeWebMCP);
  expect(inPage.symbols.some((s) => s.includes('webmcp-agent.page-bridge'))).toBe(false);
  expect(
    await messageFrame(serviceWorker, tabId, 0, { type: 'bridge/ping' }).then(
      () => 'answered',
      () => 'silent',
    ),
  ).toBe('silent');

  await watchTab(serviceWorker, tabId);
  expect(await messageFrame(serviceWorker, tabId, 0, { type: 'bridge/ping' })).toMatchObject({ world: 'isolated', mainWorld: true });
});

test('tools registered before the bridge loads are kept: the first script, its first microtask, the 2025 API', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/early-tools.html`);
  const tabId = await tabIdOf(page);
  // Native WebMCP has no navigator.modelContext, and the extension adds nothing to the page there.
  await expectTools(
    serviceWorker,
    tabId,
    nativeWebMCP ? ['first_microtask', 'first_script'] : ['first_microtask', 'first_script', 'legacy_provided'],
  );
  expect(textOf(await callTool(serviceWorker, tabId, 'first_script'))).toBe('first');
  expect(textOf(await callTool(serviceWorker, tabId, 'first_microtask'))).toBe('microtask');
  if (!nativeWebMCP) expect(textOf(await callTool(serviceWorker, tabId, 'legacy_provided'))).toBe('provided');
  // The page's listener on the object it held from the start hears the changes.
  expect(await page.evaluate(() => (window as any).toolchanges)).toBeGreaterThan(0);
});

test('a declarative form with toolautosubmit that submits to another document returns what that document reports', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/message-form.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['send_message']);
  await startCall(serviceWorker, tabId, 'send_message', { to: 'Ada', text: 'Tea at five?' });
  await expect.poll(async () => (await pendingCall(serviceWorker)).output !== undefined, { timeout: 15_000 }).toBe(true);
  const output = (await pendingCall(serviceWorker)).output!;
  const text = textOf(output);
  expect(text).toContain(
    `"send_message" navigated the page to ${server.url}/message-sent.html?to=Ada&text=Tea+at+five%3F (“Message sent”).`,
  );
  expect(output.structuredContent).toMatchObject({
    navigatedTo: `${server.url}/message-sent.html?to=Ada&text=Tea+at+five%3F`,
    title: 'Message sent',
    h1: 'Messages',
    jsonLd: [{ '@context': 'https://schema.org', '@type': 'Message', recipient: 'Ada', text: 'Tea at five?' }],
  });
  await expect(page.locator('dialog#sent')).toBeVisible();
});

test('a page that registers a tool, or has a <form toolname>, gets the bridge by itself, with no panel open', async ({
  context,
  server,
  serviceWorker,
  nativeWebMCP,
}) => {
  // The stubs as they stay once the agent host has reported whether the browser has WebMCP.
  await expect
    .poll(() => serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id)))
    .toEqual([nativeWebMCP ? 'webmcp-agent-native-stub' : 'webmcp-agent-page-stub']);
  const bridged = (page: import('@playwright/test').Page) =>
    page.evaluate(() => Object.getOwnPropertySymbols(window).map(String).includes('Symbol(webmcp-agent.page-bridge)'));
  // No tab is watched here: what loads the bridge is the stub's wake (the page world's stub, or with native WebMCP
  // the isolated watcher of the native modelContext).
  for (const fixture of ['early-tools.html', 'message-form.html']) {
    const page = await context.newPage();
    await page.goto(`${server.url}/${fixture}`);
    await expect.poll(() => bridged(page), { message: fixture }).toBe(true);
    await page.close();
  }
  // And one that shows no sign of WebMCP does not, even after its load event.
  const plain = await context.newPage();
  await plain.goto(`${server.url}/plain.html`, { waitUntil: 'load' });
  await plain.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  expect(await bridged(plain)).toBe(false);
});
