import { callTool, expectTools, expectUndelegatedFrame, getTools, test, textOf } from './connector-helpers';
import { expect } from './fixtures';

test('tools from the top frame and same- and cross-origin iframes, each named uniquely and routed back', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/frames-tools.html`);
  const tabId = await tabIdOf(page);
  const snapshot = await expectTools(serviceWorker, tabId, ['cross_only', 'same_only', 'where', 'where_2', 'where_3']);
  const byOrigin = snapshot.tools
    .map((t) => ({ name: t.name, originalName: t.originalName, origin: t.origin, top: t.frameId === 0 }))
    .sort((a, b) => a.name.localeCompare(b.name));
  // Names are handed out in the order frames report (the top frame usually first).
  expect(byOrigin.filter((t) => t.originalName === 'where' && t.top)).toEqual([
    { name: expect.stringMatching(/^where(_[23])?$/), originalName: 'where', origin: server.url, top: true },
  ]);
  expect(byOrigin.filter((t) => t.originalName === 'cross.only')).toEqual([
    { name: 'cross_only', originalName: 'cross.only', origin: server.crossOriginUrl, top: false },
  ]);
  expect(byOrigin.filter((t) => t.originalName === 'same.only')).toEqual([
    { name: 'same_only', originalName: 'same.only', origin: server.url, top: false },
  ]);
  // Each model-facing name maps back to exactly its frame.
  for (const tool of snapshot.tools.filter((t) => t.originalName === 'where')) {
    const expected = tool.frameId === 0 ? 'top' : tool.origin === server.crossOriginUrl ? 'cross' : 'same';
    expect(textOf(await callTool(serviceWorker, tabId, tool.name))).toBe(expected);
  }
  expect(textOf(await callTool(serviceWorker, tabId, 'cross_only'))).toBe('cross only');
  // Native WebMCP and the polyfill agree here because the page grants allow="tools" to its cross-origin frame.
  expect(
    await page
      .frameLocator('#cross')
      .locator('body')
      .evaluate(() => (window as any).registerError),
  ).toBeNull();

  // A frame that goes away takes its tools with it (badge included); a call to one of them is unknown_tool.
  // Names stay with their tools: the cross-origin "where" keeps its name, and the same-origin one's is not reused.
  const crossWhere = snapshot.tools.find((t) => t.originalName === 'where' && t.origin === server.crossOriginUrl)!.name;
  const sameWhere = snapshot.tools.find((t) => t.originalName === 'where' && t.frameId !== 0 && t.origin === server.url)!.name;
  // Frames report in any order, so the top frame's "where" is not always the plain name.
  const topWhere = snapshot.tools.find((t) => t.originalName === 'where' && t.frameId === 0)!.name;
  await page.evaluate(() => document.getElementById('same')!.remove());
  await expectTools(serviceWorker, tabId, ['cross_only', topWhere, crossWhere]);
  await expect.poll(() => serviceWorker.evaluate((t) => chrome.action.getBadgeText({ tabId: t }), tabId)).toBe('3');
  expect(textOf(await callTool(serviceWorker, tabId, crossWhere))).toBe('cross');
  expect(textOf(await callTool(serviceWorker, tabId, sameWhere))).toMatch(
    new RegExp(`^Error \\[unknown_tool\\]: No tool named "${sameWhere}" on this page\\.`),
  );
  expect(textOf(await callTool(serviceWorker, tabId, 'same_only'))).toMatch(
    /^Error \[unknown_tool\]: No tool named "same_only" on this page\./,
  );
});

test('a cross-origin frame without allow="tools": native WebMCP refuses its tools, and so does the polyfill', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  await page.evaluate((src) => {
    const f = document.createElement('iframe');
    f.id = 'cross';
    f.src = src;
    document.body.append(f);
  }, `${server.crossOriginUrl}/frame-tool.html?who=cross`);
  const tabId = await tabIdOf(page);
  await expectUndelegatedFrame(page, '#cross');
  expect((await getTools(serviceWorker, tabId)).tools).toEqual([]);
});
