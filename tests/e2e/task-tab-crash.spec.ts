/**
 * A tab whose renderer crashed leaves the task across tabs it was added to (docs/security.md § 8): Chromium tells
 * no tab or navigation event of a crash, so the router hears it from the Port the tab's top document held, asks the
 * browser, and the host drops the tab with reason `crashed`; the panel shows the note. A crash is real here: the
 * tab navigates to chrome://crash.
 */
import { toolCard } from './browser';
import { expect, openShopWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

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
      (await serviceWorker.evaluate((id) => (globalThis as any).testToolRouter.getTools(id), recipesId)).tools
        .map((t: { name: string }) => t.name)
        .sort(),
    )
    .toEqual(RECIPE_TOOLS);

  await crash(recipes);

  // The router's snapshot says so, and names no page and no tools …
  await expect
    .poll(async () => serviceWorker.evaluate((id) => (globalThis as any).testToolRouter.getTools(id), recipesId))
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
    .poll(async () => (await serviceWorker.evaluate((id) => (globalThis as any).testToolRouter.getTools(id), recipesId)).tools.length)
    .toBe(RECIPE_TOOLS.length);
  expect((await serviceWorker.evaluate((id) => (globalThis as any).testToolRouter.getTools(id), recipesId)).crashed).toBeUndefined();
  await expect(panel.getByText('Tabs in this task: 2')).toBeVisible();
  await expect(panel.locator('.task-left')).toHaveCount(0);
});

test('a call running in an added tab when its page crashes ends, the tab leaves, and the conversation goes on', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  // The courier desk's wait_for_pickup runs until it is cancelled: only the crash can end it here.
  const courierUrl = `${server.crossOriginUrl}/task-courier.html`;
  const courier = await context.newPage();
  await courier.goto(courierUrl);
  const courierId = await tabIdOf(courier);
  await expect
    .poll(async () =>
      (await serviceWorker.evaluate((id) => (globalThis as any).testToolRouter.getTools(id), courierId)).tools.map(
        (t: { name: string }) => t.name,
      ),
    )
    .toContain('wait_for_pickup');
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const name = `${new URL(courierUrl).host.replace(/[^a-z0-9]+/g, '_')}__wait_for_pickup`;
  provider.script(
    { type: 'reply', toolCalls: [{ name, input: { order: 'A1' } }] },
    { type: 'reply', text: 'The courier desk stopped answering.' },
  );
  await panel.getByText('Tabs: this tab only').click();
  await panel.getByRole('button', { name: /^Add localhost/ }).click();
  await expect(panel.getByText('Tabs in this task: 2')).toBeVisible();

  await sendFromPanel(panel, 'Wait for the courier');
  const wait = toolCard(panel, name);
  await wait.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect.poll(() => courier.evaluate(() => (window as unknown as { pickupStarted: boolean }).pickupStarted)).toBe(true);
  await expect(wait.locator('.tool-state')).toHaveText('running');

  await crash(courier);

  // The call ends (the browser closed its channel), the model hears it and answers, and the tab has left.
  await expect(wait.locator('.tool-state')).toHaveText(/failed|outcome unknown/, { timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('The courier desk stopped answering.')).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.task-left')).toContainText(/localhost:\d+ left the task: the tab’s page crashed/);
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
});

test('a conversation whose own tab crashes does not hang: the running call ends and the model answers', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const courier = await context.newPage();
  await courier.goto(`${server.url}/task-courier.html`);
  const panel = await openSidePanel(courier);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'wait_for_pickup', input: { order: 'A1' } }] },
    { type: 'reply', text: 'This tab’s page stopped answering.' },
  );
  await sendFromPanel(panel, 'Wait for the courier');
  // Read-only, on the conversation's own site: it runs unasked.
  const wait = toolCard(panel, 'wait_for_pickup');
  await expect.poll(() => courier.evaluate(() => (window as unknown as { pickupStarted: boolean }).pickupStarted)).toBe(true);

  await crash(courier);

  await expect(wait.locator('.tool-state')).toHaveText(/failed|outcome unknown/, { timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('This tab’s page stopped answering.')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
});
