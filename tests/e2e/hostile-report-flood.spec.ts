/**
 * Issue 45: sixteen frames, each re-reporting 200 tools of 1.5 KB four times a second. The tab shares one report
 * budget (not sixteen), its panel says what was refused and why, and another tab's new tool is still listed.
 */
import { expectTools, getTools, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';
import { expectPanelLimit } from './hostile-helpers';

test('a report flood is held to the tab’s budget, the panel says so, and another tab’s new tool is listed meanwhile', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  // Its waits add up on a loaded machine (35–37 s with the other core busy): 90 s rather than the usual 60.
  test.setTimeout(90_000);
  const flood = await context.newPage();
  await flood.goto(`${server.url}/hostile/report-flood.html`);
  const floodTab = await tabIdOf(flood);
  // The hostile tab itself may lag (issue 45 bounds the other tabs): while its seventeen frames first read their tools,
  // each native getTools() answer carries all 3,200 tools through the browser, and one question to the service worker
  // took up to 5.4 s to come back on an idle machine (measured with the bridge's reads logged). 30 s, not 10, so a busy
  // CI machine does not fail it; the other tab's tool below keeps its usual wait.
  await watchTab(serviceWorker, floodTab, 30_000);
  // The router held reports of this tab, by their count or by their bytes (whichever the flood meets first on a
  // busy machine): its snapshot says so in the extension's words.
  await expect
    .poll(async () => (await getTools(serviceWorker, floodTab)).limits?.some((l) => l.kind === 'reports' || l.kind === 'report-bytes'), {
      timeout: 30_000,
    })
    .toBe(true);
  const panel = await openSidePanel(flood);
  await expectPanelLimit(
    panel,
    /re-reported its tools more often than the extension takes them in: its tool list is updated here at most 5 times a second|sent more tool descriptions than the extension takes in: at most 256 KB a second from one tab/,
  );
  // The person can still work in the panel of the flooding tab.
  await expect(panel.getByRole('textbox', { name: 'Message' })).toBeEditable();

  // While the frames keep reporting, another tab's tools arrive, and a tool it registers later is listed.
  const other = await context.newPage();
  await other.goto(`${server.url}/frame-order.html`);
  const otherTab = await tabIdOf(other);
  await expectTools(serviceWorker, otherTab, ['place_order']);
  await other.evaluate(() =>
    (document as any).modelContext.registerTool({ name: 'late_tool', description: 'Registered during the flood.', execute: () => 'ok' }),
  );
  await expectTools(serviceWorker, otherTab, ['late_tool', 'place_order']);
  await flood.evaluate(() => (window as any).stopFlood());
  await flood.close();
});
