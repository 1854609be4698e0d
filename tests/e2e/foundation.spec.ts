import { expect, messageFrame, test } from './fixtures';

// What a first start does (the worker runs, the host is created): on a new profile, not a reset shared browser.
test.describe('on a new profile', () => {
  test.use({ freshBrowser: true });
  test('the service worker runs and the offscreen agent host is created', async ({ serviceWorker, extensionId }) => {
    expect(extensionId).toMatch(/^[a-p]{32}$/);
    await expect
      .poll(() =>
        serviceWorker.evaluate(async () => (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as any] })).length),
      )
      .toBe(1);
    // The document exists before its script has started listening: ask until it answers.
    await expect
      .poll(() => serviceWorker.evaluate(() => chrome.runtime.sendMessage({ type: 'host/ping' }).catch((e) => String(e))))
      .toMatchObject({ host: 'offscreen', crossOriginIsolated: true });
  });
});

test('a page without tools gets only the stub in every frame; watched, each frame gets the whole bridge and announces its document', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  // Record which frames' bridges announce their documents, then load the page.
  await serviceWorker.evaluate(() => {
    (globalThis as any).seenFrames = new Set<number>();
    chrome.runtime.onMessage.addListener((message: any, sender) => {
      if (message?.type === 'frame/ready') (globalThis as any).seenFrames.add(sender.frameId);
    });
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/frames.html`);
  await expect(page.frameLocator('#cross').locator('h1')).toHaveText('A page with no tools');
  const tabId = await tabIdOf(page);
  // No tools anywhere: no frame has a bridge, so none answers and none announced itself.
  const ping = (f: number) => messageFrame<any>(serviceWorker, tabId, f, { type: 'bridge/ping' }).catch(() => undefined);
  expect(await ping(0)).toBeUndefined();
  expect(await serviceWorker.evaluate(() => (globalThis as any).seenFrames.size)).toBe(0);
  // Watched (the panel opens on the tab): every frame gets the bridge, in both worlds, and announces its document.
  await serviceWorker.evaluate((t) => (globalThis as any).testToolRouter.getTools(t), tabId);
  await expect.poll(() => serviceWorker.evaluate(() => (globalThis as any).seenFrames.size)).toBe(3);
  const announced: number[] = await serviceWorker.evaluate(() => [...(globalThis as any).seenFrames]);
  await expect.poll(async () => (await Promise.all(announced.map(ping))).every((r) => r?.mainWorld === true)).toBe(true);
  const replies = await Promise.all(announced.map(ping));
  const urls = replies.map((r) => r.url).sort();
  expect(urls).toEqual([`${server.url}/frames.html`, `${server.url}/plain.html`, `${server.crossOriginUrl}/plain.html`].sort());
  for (const reply of replies) expect(reply).toMatchObject({ world: 'isolated', mainWorld: true });
});

test('the side panel and the options page render', async ({ context, server, openSidePanel, openOptions }) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('heading', { name: 'WebMCP Agent' })).toBeVisible();
  const options = await openOptions();
  await expect(options.getByRole('heading', { name: /settings/i })).toBeVisible();
});
