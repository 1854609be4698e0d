/**
 * Issue 45: a hundred same-origin frames, each with tools. The extension hears from 64 frames of a tab (and the
 * top); the others are ignored, and the panel says so. Frames of the top's origin are trusted by their origin, not
 * sent through the delegation check meant for other origins' frames. A watched tab's frames get the bridge only
 * where the extension hears them.
 */
import { DELEGATION_MESSAGE_KEY } from '../../lib/isolated-world/offer-tools-delegation';
import { getTools, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';
import { expectPanelLimit } from './hostile-helpers';

test('a page of a hundred frames: the extension takes 64 and the panel says it ignored the others', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/hostile/hundred-frames.html`);
  const tabId = await tabIdOf(page);
  await watchTab(serviceWorker, tabId);
  await expect
    .poll(async () => (await getTools(serviceWorker, tabId)).limits?.map((l) => l.kind) ?? [], { timeout: 30_000 })
    .toContain('frames');
  const panel = await openSidePanel(page);
  await expectPanelLimit(
    panel,
    'has more than 64 frames; the extension takes tools and messages from 64 frames of one tab and ignored the others.',
  );
  // Never tools from more than 64 frames and the top.
  expect(new Set((await getTools(serviceWorker, tabId)).tools.map((t) => t.frameId)).size).toBeLessThanOrEqual(65);
  await page.close();
});

test('frames of the top’s origin are trusted by their origin: none is asked to hand delegation tokens to its frames', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  // Every document of the page counts the delegation tokens posted to it (offer-tools-delegation.ts posts them).
  await page.addInitScript((key) => {
    const counted = window as unknown as { delegationTokens: number };
    counted.delegationTokens = 0;
    addEventListener('message', (event) => {
      if (event.data && typeof event.data === 'object' && key in event.data) counted.delegationTokens++;
    });
  }, DELEGATION_MESSAGE_KEY);
  // Twenty frames, each of whose bridges is loaded as its page shows WebMCP (the lazy connector), before the tab is
  // watched. Before the fix each one's announcement marked it as needing delegation, and the router sent every
  // frame of the tab a request for tokens: five rounds, 505 messages to a hundred frames and 320 back.
  await page.goto(`${server.url}/hostile/hundred-frames.html?frames=20`);
  const tabId = await tabIdOf(page);
  await expect.poll(async () => (await getTools(serviceWorker, tabId)).tools.length, { timeout: 30_000 }).toBe(61);
  const tokens = await Promise.all(
    page.frames().map((frame) => frame.evaluate(() => (window as unknown as { delegationTokens?: number }).delegationTokens ?? 0)),
  );
  expect(tokens).toHaveLength(21);
  expect(tokens.reduce((sum, n) => sum + n, 0)).toBe(0);
  await page.close();
});

test('a watched page of a hundred frames gets the bridge only in the frames the extension hears, the top and 64', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  // Counts the service worker's injections as they start and end, to know when those the watch started are done.
  await serviceWorker.evaluate(`(() => {
    const scripting = chrome.scripting;
    const run = scripting.executeScript.bind(scripting);
    globalThis.injections = { running: 0, everyFrame: 0, restore: () => { scripting.executeScript = run; } };
    scripting.executeScript = async (injection) => {
      globalThis.injections.running++;
      if (injection.target.allFrames) globalThis.injections.everyFrame++;
      try { return await run(injection); } finally { globalThis.injections.running--; }
    };
  })()`);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/hostile/hundred-frames.html`);
    const tabId = await tabIdOf(page);
    // Watching the tab loads the bridge where it is missing: before issue 45's twelfth stop, into every frame.
    await watchTab(serviceWorker, tabId);
    await expect
      .poll(() => serviceWorker.evaluate(`(({ running, everyFrame }) => running === 0 && everyFrame > 0)(globalThis.injections)`), {
        timeout: 30_000,
      })
      .toBe(true);
    const bridged = await serviceWorker.evaluate(`(async () => {
      const found = await chrome.scripting.executeScript({
        target: { tabId: ${tabId}, allFrames: true },
        func: () => globalThis.webmcpAgentBridge !== undefined && globalThis.webmcpAgentBridge === document,
      });
      return found.filter((frame) => frame.result === true).length;
    })()`);
    expect(page.frames()).toHaveLength(101);
    expect(bridged).toBe(65);
    await page.close();
  } finally {
    await serviceWorker.evaluate(`globalThis.injections.restore()`);
  }
});
