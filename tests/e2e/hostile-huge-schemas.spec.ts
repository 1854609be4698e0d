/**
 * Issue 45: tools whose descriptions and input schemas weigh megabytes. Each is left out whole (not cut: a cut
 * description may say the opposite of the whole), before it is copied out of the page's world, and the panel's Tools
 * view says why in the extension's words; the page's other tools are still listed.
 */
import { expectTools, getTools } from './connector-helpers';
import { expect, test } from './fixtures';

test('tools of megabytes are refused with the extension’s note; a small tool registered beside them is listed', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  // Its waits add up on a loaded machine (it took 47 s with the other core busy): 90 s rather than the usual 60.
  test.setTimeout(90_000);
  const page = await context.newPage();
  await page.goto(`${server.url}/hostile/huge-schemas.html?tools=2&mb=1&hz=1`);
  await page.evaluate(() =>
    (document as any).modelContext.registerTool({ name: 'small_tool', description: 'An ordinary tool.', execute: () => 'ok' }),
  );
  const tabId = await tabIdOf(page);
  // The hostile tab itself may lag (issue 45 bounds the other tabs): registering a tool of 2 MB a second keeps the
  // page's renderer busy, so native getTools() took 7.3 s there and the frame's next read waited its pause
  // (read-pause-ms.ts) first: small_tool was listed 12.2 s after it was registered on an idle machine. 30 s, not 15.
  await expectTools(serviceWorker, tabId, ['small_tool'], 30_000);
  const note = '2 tools left out: a tool may weigh at most 64 KB (its name, title, description and input schema), and these weigh more.';
  await expect
    .poll(async () => (await getTools(serviceWorker, tabId)).dropped?.find((d) => d.reason === 'too-large')?.note, { timeout: 30_000 })
    .toBe(note);
  const panel = await openSidePanel(page);
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).click({ timeout: 20_000 });
  await expect(panel.locator('.tools-dropped')).toContainText(note);
  await page.evaluate(() => (window as any).stopSchemas());
  await page.close();
});
