/**
 * The demo recipe site (demo/recipes/), served on the other loopback origin (localhost) beside the demo shop
 * (127.0.0.1): it works by hand, the panel on it lists its own tools, and a scripted cloud model runs them there.
 */
import { toolCard } from './browser';
import { expect, openWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 90_000 });

const SITE_TOOLS = ['get_ingredients', 'open_recipe', 'search_recipes'];

test('the recipe site works by hand: search, open a recipe, scale it', async ({ context, server }) => {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.crossOriginUrl}/demo/recipes/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cook something good tonight');

  await page.getByRole('searchbox', { name: 'Search recipes' }).fill('vegan');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recipes for “vegan”');
  await page.getByRole('link', { name: /Red Lentil Soup/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Red Lentil Soup');
  await expect(page.locator('#ingredients li').first()).toHaveText('250 g red lentils');

  await page.getByLabel('Servings').fill('6');
  await page.getByRole('button', { name: 'Scale' }).click();
  await expect(page).toHaveURL(/#\/recipe\/lentil-soup\?servings=6$/);
  await expect(page.locator('#ingredients li').first()).toHaveText('375 g red lentils');
  expect(errors).toEqual([]);
});

test('on its own origin the panel lists the recipe tools, and a cloud model reads and scales a recipe there', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'get_ingredients', input: { recipeId: 'shakshuka', servings: 4 } }] },
    { type: 'reply', toolCalls: [{ name: 'open_recipe', input: { recipeId: 'buttermilk-pancakes' } }] },
    { type: 'reply', toolCalls: [{ name: 'scale_recipe', input: { servings: 8 } }] },
    { type: 'reply', text: 'Shakshuka for 4 takes **8 eggs**; the pancakes now show quantities for 8.' },
  );
  const url = `${server.crossOriginUrl}/demo/recipes/`;
  expect(new URL(url).origin).not.toBe(new URL(server.url).origin);
  const { tab, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, url, SITE_TOOLS);

  await panel.getByRole('button', { name: 'Tools (3)' }).click();
  const listed = panel.locator('.tool-inspect summary code');
  await expect(listed).toHaveText(SITE_TOOLS);
  await panel.getByRole('button', { name: 'Chat', exact: true }).click();

  await sendFromPanel(panel, 'How many eggs for shakshuka for 4, and show the pancakes for 8');
  // scale_recipe is not read-only: the panel asks first, naming the recipe site's origin.
  const scale = toolCard(panel, 'scale_recipe');
  await expect(scale.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  await expect(scale.locator('fieldset.confirm')).toContainText(/Allow scale_recipe on localhost:\d+\?/);
  await scale.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.markdown strong')).toHaveText('8 eggs', { timeout: 30_000 });
  for (const name of ['get_ingredients', 'open_recipe', 'scale_recipe']) {
    await expect(toolCard(panel, name).locator('.tool-state')).toHaveText('done');
  }

  // The calls ran in the page: it shows the pancakes for 8, and the model read the scaled quantities.
  await expect(tab).toHaveURL(/#\/recipe\/buttermilk-pancakes\?servings=8$/);
  await expect(tab.locator('#ingredients li').first()).toHaveText('400 g plain flour');
  const sent = provider.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => JSON.stringify(r.body));
  expect(sent[0]).toContain('search_recipes');
  expect(sent[1]).toMatch(/\\"name\\":\\"eggs\\",\\"quantity\\":8/);
});
