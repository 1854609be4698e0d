/**
 * A tab whose renderer crashed leaves the task across tabs it was added to (docs/security.md § 8): Chromium tells
 * no tab or navigation event of a crash, so the router hears it from the Port the tab's top document held, asks the
 * browser, and the host drops the tab with reason `crashed`; the panel shows the note. A crash is real here: the
 * tab navigates to chrome://crash.
 */
import { expect, openShopWithPanel, test } from './sidepanel-helpers';

test.describe.configure({ timeout: 90_000 });

const RECIPE_TOOLS = ['get_ingredients', 'open_recipe', 'search_recipes'];

/** Crashes the tab's renderer for real (Playwright's goto reports the aborted navigation). */
async function crash(page: import('@playwright/test').Page) {
  const crashed = page.waitForEvent('crash');
  await page.goto('chrome://crash').catch(() => undefined);
  await crashed;
}

test('a tab whose page crashes leaves the task: its tools go, and the panel says it crashed', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  const recipes = await context.newPage();
  await recipes.goto(`${server.crossOriginUrl}/demo/recipes/`);
  const recipesId = await tabIdOf(recipes);
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);

  // The person adds the recipes tab through the chooser.
  await panel.getByText('Tabs: this tab only').click();
  await panel.getByRole('button', { name: /^Add localhost/ }).click();
  await expect(panel.getByText('Tabs in this task: 2')).toBeVisible();
  await expect
    .poll(async () =>
      (await serviceWorker.evaluate((id) => (globalThis as any).toolBridge.getTools(id), recipesId)).tools
        .map((t: { name: string }) => t.name)
        .sort(),
    )
    .toEqual(RECIPE_TOOLS);

  await crash(recipes);

  // The router's snapshot says so, and names no page and no tools …
  await expect
    .poll(async () => serviceWorker.evaluate((id) => (globalThis as any).toolBridge.getTools(id), recipesId))
    .toMatchObject({ crashed: true, tools: [], page: {} });
  // … and the host dropped the tab from the task, with the note.
  await expect(panel.locator('.task-left')).toContainText(/localhost:\d+ left the task: the tab’s page crashed/);
  await expect(panel.getByText('Tabs: this tab only')).toBeVisible();
});

test('a reload of an added tab is no crash: it stays in the task', async ({ context, server, serviceWorker, tabIdOf, openSidePanel }) => {
  const recipes = await context.newPage();
  await recipes.goto(`${server.crossOriginUrl}/demo/recipes/`);
  const recipesId = await tabIdOf(recipes);
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.getByText('Tabs: this tab only').click();
  await panel.getByRole('button', { name: /^Add localhost/ }).click();
  await expect(panel.getByText('Tabs in this task: 2')).toBeVisible();

  await recipes.reload();
  await expect
    .poll(async () => (await serviceWorker.evaluate((id) => (globalThis as any).toolBridge.getTools(id), recipesId)).tools.length)
    .toBe(RECIPE_TOOLS.length);
  expect((await serviceWorker.evaluate((id) => (globalThis as any).toolBridge.getTools(id), recipesId)).crashed).toBeUndefined();
  await expect(panel.getByText('Tabs in this task: 2')).toBeVisible();
  await expect(panel.locator('.task-left')).toHaveCount(0);
});
