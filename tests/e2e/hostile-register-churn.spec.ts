/**
 * Issue 45: a page registering and unregistering thousands of tools a second. The frame coalesces the churn into
 * paced reports of its newest list (lib/isolated-world/create-report-pacer.ts): the tab's tool list keeps up with the
 * page, and once the churn stops it holds the page's very last tool. The first test passes on main of dafa27d too
 * (there the 50 ms debounce, restarted by every change, still finds gaps: a background tab's timers are throttled);
 * what bounds the churn's cost there is checked in create-report-pacer.test.ts and the router's limits tests. The
 * second fails on c6b41bf: the router kept every name it ever gave out in the tab's stored state (90 KB after 200
 * names, 322 KB after 1,200, growing about 23 KB with each 100).
 */
import { getTools, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';

test('a page churning thousands of tools a second is still listed as it is now, its newest tools included', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const churn = await context.newPage();
  await churn.goto(`${server.url}/hostile/register-churn.html`);
  const tabId = await tabIdOf(churn);
  await watchTab(serviceWorker, tabId);
  // A tool registered after this point: the list must come to show one such.
  const since = await churn.evaluate(() => (window as any).registered as number);
  await expect
    .poll(
      async () =>
        Math.max(
          -1,
          ...(await getTools(serviceWorker, tabId)).tools
            .filter((t) => t.name.startsWith('churn_') && t.name !== 'churn_status')
            .map((t) => Number(t.name.slice(6))),
        ),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(since);
  // Once the churn stops, the list comes to hold the page's very last tool.
  await churn.evaluate(() => (window as any).stopChurn());
  const lastTool = `churn_${(await churn.evaluate(() => (window as any).registered as number)) - 1}`;
  await expect.poll(async () => (await getTools(serviceWorker, tabId)).tools.map((t) => t.name), { timeout: 30_000 }).toContain(lastTool);
  await churn.close();
});

test('a page that keeps giving its tools new names does not grow what the extension keeps for its tab', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  // What the router keeps of a tab (its frames' lists, the names it gave out) lives in the service worker's session
  // storage, written after every report: a page that could grow it without end would make every report
  // of its tab dearer and fill the storage every tab shares.
  const churn = await context.newPage();
  await churn.goto(`${server.url}/hostile/register-churn.html?rate=0`);
  const tabId = await tabIdOf(churn);
  await watchTab(serviceWorker, tabId);
  // The tab's record and its frames' reports (lib/background/create-tab-state-store.ts).
  const keptBytes = () =>
    serviceWorker.evaluate(async (t) => {
      const keys = Object.keys(await chrome.storage.session.get(null)).filter(
        (k) => k === `bridge:tab:${t}` || k.startsWith(`bridge:tab:${t}:`),
      );
      return chrome.storage.session.getBytesInUse(keys);
    }, tabId);
  /** Replaces the page's tools with 100 of names never given before, 64 characters long (as long as a listed name may be), and waits until listed. */
  const round = async () => {
    const last = await churn.evaluate(() => (window as any).replaceAll(100, 64) as string);
    await expect.poll(async () => (await getTools(serviceWorker, tabId)).tools.map((t) => t.name), { timeout: 30_000 }).toContain(last);
  };
  // The router forgets the names of tools gone past MAX_GONE_TOOL_NAMES_PER_TAB (1,000): after 1,300 names what it
  // keeps has levelled off, and 1,200 names more must not grow it.
  for (let i = 0; i < 13; i++) await round();
  const levelled = await keptBytes();
  for (let i = 0; i < 12; i++) await round();
  const late = await keptBytes();
  expect(late, `kept after 1,300 names: ${levelled} B, after 2,500: ${late} B`).toBeLessThan(levelled * 1.15);
  await churn.close();
});
