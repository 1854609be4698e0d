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
  const flood = await context.newPage();
  await flood.goto(`${server.url}/hostile/report-flood.html`);
  const floodTab = await tabIdOf(flood);
  await watchTab(serviceWorker, floodTab);
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
