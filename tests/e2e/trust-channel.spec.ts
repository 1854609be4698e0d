/**
 * The channel between a frame's page world and the extension's isolated world under attack (issue 22, item 4;
 * docs/security.md §4, "The page ↔ isolated-world channel"). The bridge loads after the page's scripts, so a page
 * can be waiting for it: a page that only listens is refused, and one that patched the bridge's built-ins holds
 * what the bridge holds in its world, which is its own frame's tools and nothing else.
 */
import { callTool, expectTools, getTools, textOf, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';

interface Hostile {
  requests: unknown[];
  heard: string[];
  grabbed: number;
}

test("a page that answers the bridge's handshake first is refused: the frame's own tools are served, and its ports hear nothing", async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/channel-first.html`);
  const tabId = await tabIdOf(page);
  // Its registration loads the bridge; watching the tab loads it a second time (a second key, the same channel).
  await watchTab(serviceWorker, tabId);
  await expectTools(serviceWorker, tabId, ['real_tool']);
  // The list stays the bridge's after the page replayed what it heard and forged answers on the bridge's port.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  expect((await getTools(serviceWorker, tabId)).tools.map((t) => t.name)).toEqual(['real_tool']);

  expect(textOf(await callTool(serviceWorker, tabId, 'real_tool', { note: 'for the page’s own tool' }))).toBe('real');
  expect(await page.evaluate(() => (window as any).received)).toBe('for the page’s own tool');
  const hostile = await page.evaluate(() => (window as any).hostile as Hostile);
  // The page did take the bridge's announced port, and heard the key on it: spent by then, and replayed in vain.
  expect(hostile.grabbed).toBeGreaterThan(0);
  expect(hostile.heard.join('\n')).toContain('"key"');
  // The isolated side never spoke to a port of the page's making.
  expect(hostile.requests).toEqual([]);
  // A port the page took from the bridge's announcement carries only what the bridge says; the isolated side's
  // requests (the call's input among them) never pass where the page can hear them.
  expect(hostile.heard.join('\n')).not.toContain('for the page’s own tool');
  expect(hostile.heard.join('\n')).not.toContain('"op":"call"');
  expect(hostile.heard.join('\n')).not.toContain('main/call');
});

test('a frame that patched the bridge’s built-ins speaks only for itself: known by its own origin, and deaf to the top page’s calls', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/channel-patched.html`);
  const tabId = await tabIdOf(page);
  await watchTab(serviceWorker, tabId);
  // The frame's "pay" (added to its list by its patch, claiming the whole tab) is the frame's, under another name.
  const snapshot = await expectTools(serviceWorker, tabId, ['frame_tool', 'pay', 'pay_2']);
  const where = Object.fromEntries(snapshot.tools.map((t) => [t.name, { origin: t.origin, top: t.frameId === 0 }]));
  expect(where).toEqual({
    pay: { origin: server.url, top: true },
    pay_2: { origin: server.crossOriginUrl, top: false },
    frame_tool: { origin: server.crossOriginUrl, top: false },
  });
  expect(JSON.stringify(snapshot.page)).not.toContain('bank.example');

  // The top page's call, with its secret argument, goes to the top page only.
  expect(textOf(await callTool(serviceWorker, tabId, 'pay', { card: '4111 1111 1111 1111' }))).toBe('paid');
  expect(await page.evaluate(() => (window as any).paidWith)).toEqual(['4111 1111 1111 1111']);
  const frame = page.frameLocator('#widget').locator('body');
  const seen = () => frame.evaluate(() => ((window as any).seen as string[]).join('\n'));
  // The patch did take over its own frame's channel: it saw the bridge's traffic there, the key included.
  expect(await seen()).toContain('"type":"main/list"');
  expect(await seen()).toContain('"key"');
  expect(await seen()).not.toContain('4111');
  // A call to the frame's claimed "pay" reaches the frame, and nothing reaches the top page.
  await callTool(serviceWorker, tabId, 'pay_2', { card: 'typed into the frame' });
  expect(await seen()).toContain('typed into the frame');
  expect(await page.evaluate(() => (window as any).paidWith)).toEqual(['4111 1111 1111 1111']);
});
