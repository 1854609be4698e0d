/**
 * Issue 45: a hundred same-origin frames, each with tools. The extension hears from 64 frames of a tab (and the
 * top); the others are ignored, and the panel says so.
 */
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
