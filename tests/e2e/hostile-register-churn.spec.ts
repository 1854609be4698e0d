/**
 * Issue 45: a page registering and unregistering thousands of tools a second. The frame coalesces the churn into
 * paced reports of its newest list (lib/isolated-world/create-report-pacer.ts): the tab's tool list keeps up with the
 * page, and once the churn stops it holds the page's very last tool. This spec passes on main too (run on dafa27d,
 * polyfill): there the 50 ms debounce, restarted by every change, still finds gaps (a background tab's timers are
 * throttled); what bounds the churn's cost is checked in create-report-pacer.test.ts and the router's limits tests.
 */
import { getTools, watchTab } from './bridge-helpers';
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
