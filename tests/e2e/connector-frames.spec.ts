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

test('same-origin frames that share their reads of native tools each list and run their own, also once the frame that read is gone; the page cannot reach what they share', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/frames-shared-reads.html`);
  const tabId = await tabIdOf(page);
  const wheres = ['where', 'where_2', 'where_3'];
  const snapshot = await expectTools(serviceWorker, tabId, ['f1_only', 'f2_only', 'f3_only', 'top_tool', ...wheres]);
  // Each frame's "where" answers from that frame: three names, three frames.
  const whoAnswers = new Map<string, string>();
  for (const name of wheres) whoAnswers.set(textOf(await callTool(serviceWorker, tabId, name)), name);
  expect([...whoAnswers.keys()].sort()).toEqual(['f1', 'f2', 'f3']);
  for (const n of [1, 2, 3]) expect(textOf(await callTool(serviceWorker, tabId, `f${n}_only`))).toBe(`f${n} only`);
  expect(snapshot.tools.find((t) => t.name === 'top_tool')?.frameId).toBe(0);

  // A frame goes away: its tools with it; the others' calls run on entries any frame of the tab may have read.
  await page.evaluate(() => document.getElementById('f1')!.remove());
  await expectTools(serviceWorker, tabId, ['f2_only', 'f3_only', 'top_tool', whoAnswers.get('f2')!, whoAnswers.get('f3')!]);
  expect(textOf(await callTool(serviceWorker, tabId, 'f2_only'))).toBe('f2 only');
  expect(textOf(await callTool(serviceWorker, tabId, whoAnswers.get('f3')!))).toBe('f3');
  expect(textOf(await callTool(serviceWorker, tabId, 'top_tool'))).toBe('top');

  // A tool a frame registers later is listed and runs there.
  await page
    .frameLocator('#f3')
    .locator('body')
    .evaluate(() =>
      (document as any).modelContext.registerTool({ name: 'f3.late', description: 'Registered later.', execute: () => 'late' }),
    );
  await expectTools(serviceWorker, tabId, ['f2_only', 'f3_late', 'f3_only', 'top_tool', whoAnswers.get('f2')!, whoAnswers.get('f3')!]);
  expect(textOf(await callTool(serviceWorker, tabId, 'f3_late'))).toBe('late');
});
