import { callTool, expectTools, getTools, textOf } from './bridge-helpers';
import { expect, test } from './fixtures';

test('tools from the top frame and same- and cross-origin iframes, each named uniquely and routed back', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/frames-tools.html`);
  const tabId = await tabIdOf(page);
  const snapshot = await expectTools(serviceWorker, tabId, ['cross_only', 'same_only', 'where', 'where_2', 'where_3']);
  const byOrigin = snapshot.tools
    .map((t) => ({ name: t.name, originalName: t.originalName, origin: t.origin, top: t.frameId === 0 }))
    .sort((a, b) => a.name.localeCompare(b.name));
  expect(byOrigin.filter((t) => t.originalName === 'where' && t.top)).toEqual([{ name: 'where', originalName: 'where', origin: server.url, top: true }]);
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
  expect(await page.frameLocator('#cross').locator('body').evaluate(() => (window as any).registerError)).toBeNull();
  expect(nativeWebMCP === true || nativeWebMCP === false).toBe(true);

  // A frame that goes away: its tools leave the snapshot, and a call to them says frame_gone or unknown_tool.
  const sameName = snapshot.tools.find((t) => t.originalName === 'same.only')!.name;
  await page.evaluate(() => document.getElementById('same')!.remove());
  const gone = await callTool(serviceWorker, tabId, sameName);
  expect(textOf(gone)).toMatch(/^Error \[(frame_gone|unknown_tool)\]: /);
  await expect.poll(async () => (await getTools(serviceWorker, tabId)).tools.some((t) => t.originalName === 'same.only')).toBe(false);
});

test('a cross-origin frame without allow="tools": native WebMCP refuses its tools, the polyfill serves them', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
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
  if (nativeWebMCP) {
    await expect
      .poll(() => page.frameLocator('#cross').locator('body').evaluate(() => (window as any).registerError))
      .toBe('NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.');
    expect((await getTools(serviceWorker, tabId)).tools).toEqual([]);
  } else {
    await expectTools(serviceWorker, tabId, ['cross_only', 'where']);
  }
});
