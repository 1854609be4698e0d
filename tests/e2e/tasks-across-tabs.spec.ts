/**
 * Issue 37, tasks that span tabs, through the side panel's UI in the built extension with a scripted cloud model
 * (the loopback provider): the person adds open tabs to the conversation with the panel's chooser, each call runs in
 * its own tab, a crossing between sites asks (and "Allow for this task" covers one direction, until a new chat), a
 * tab that leaves is said so and its tools are gone, a card keeps the site and title its call ran under, Stop
 * reaches another tab's call, and nothing but the person's click adds a tab. Three sites: the demo shop (127.0.0.1:P), the recipes demo (localhost:P), and a courier desk on a
 * server of its own (127.0.0.1:Q), whose frame comes from localhost:Q.
 */
import { readFileSync } from 'node:fs';
import type { Page, Worker } from '@playwright/test';
import { readSent } from '../servers/provider-server';
import { type StaticServer, startStaticServer } from '../servers/static-server';
import { toolCard } from './browser';
import { getTools } from './connector-helpers';
import { evaluateInContentScript } from './content-script-world';
import { expect, expectAccessible, sendFromPanel, test as base, useCloud } from './sidepanel-helpers';

const test = base.extend<{ third: StaticServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  third: async ({}, use) => {
    const server = await startStaticServer({ '/': 'tests/fixtures/pages' });
    await use(server);
    await server.close();
  },
});

test.describe.configure({ timeout: 120_000 });

/** The site part of a site-qualified tool name (lib/agent/site-tool-names.ts). */
const label = (url: string) => new URL(url).host.replace(/[^a-z0-9]+/g, '_');
const hostOf = (url: string) => new URL(url).host;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Fixtures {
  context: import('@playwright/test').BrowserContext;
  serviceWorker: Worker;
  tabIdOf: (page: Page) => Promise<number>;
  openSidePanel: (page: Page) => Promise<Page>;
}

/** Opens `url` in a new tab once the router lists `tool` for it. */
async function openTab(f: Fixtures, url: string, tool: string): Promise<{ page: Page; tabId: number }> {
  const page = await f.context.newPage();
  await page.goto(url);
  const tabId = await f.tabIdOf(page);
  await expect.poll(async () => (await getTools(f.serviceWorker, tabId)).tools.map((t) => t.name), { timeout: 20_000 }).toContain(tool);
  return { page, tabId };
}

/** The shop's mug page with the panel bound to it. */
async function openShop(f: Fixtures, serverUrl: string) {
  const shop = await openTab(f, `${serverUrl}/demo/#/product/ceramic-mug`, 'add_to_cart');
  const panel = await f.openSidePanel(shop.page);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  return { ...shop, panel };
}

/** Adds the open tab showing `url`'s site through the chooser, as the person does, and waits until the task lists it. */
async function addTab(panel: Page, url: string) {
  const chooser = panel.locator('details.task-tabs');
  if ((await chooser.getAttribute('open')) === null) await chooser.locator('summary').click();
  await panel.getByRole('button', { name: new RegExp(`^Add ${escapeRegExp(hostOf(url))}\\b`) }).click();
  await expect(
    panel.getByRole('list', { name: 'Tabs in this task' }).getByRole('button', { name: `Remove ${hostOf(url)} from this task` }),
  ).toBeVisible();
}

/** The tool names of every generation request the provider received so far. */
const offered = (provider: { requests: import('../servers/provider-server').RecordedRequest[] }) =>
  provider.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => readSent(r).tools.map((t) => t.name));

test('a cross-tab errand: the chooser adds the recipes tab, the recipe is read there, the mugs go in the shop’s basket, each card names its tab and site', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  const recipes = await openTab(f, recipesUrl, 'get_ingredients');
  const { page: shop, tabId: shopId, panel } = await openShop(f, server.url);
  const R = label(recipesUrl);
  const S = label(server.url);
  provider.script(
    { type: 'reply', toolCalls: [{ name: `${R}__get_ingredients`, input: { recipeId: 'shakshuka', servings: 2 } }] },
    { type: 'reply', toolCalls: [{ name: `${S}__add_to_cart`, input: { quantity: 2 } }] },
    { type: 'reply', text: 'Two mugs are in your basket.' },
  );

  // The chooser lists the recipes tab with its site, title and tools; the panel's own tab is in and cannot be removed.
  await panel.locator('details.task-tabs summary').click();
  const others = panel.getByRole('list', { name: 'Other open tabs' });
  const recipesRow = others.getByRole('listitem').filter({ hasText: hostOf(recipesUrl) });
  await expect(recipesRow).toContainText(/\d+ tools/);
  await expect(others).not.toContainText(hostOf(server.url));
  // Only a page's site can be added: not the panel's own page, nor a browser page.
  await expect(others.getByRole('button', { name: /^Add / })).toHaveCount(1);
  const inTask = panel.getByRole('list', { name: 'Tabs in this task' });
  await expect(inTask.getByRole('listitem').first()).toContainText('This tab: always in');
  await expect(inTask.getByRole('button')).toHaveCount(0);
  await expectAccessible(panel);
  await addTab(panel, recipesUrl);
  await expect(panel.locator('details.task-tabs summary')).toHaveText('Tabs in this task: 2');

  await sendFromPanel(panel, 'Put the mugs for a shakshuka for two in my basket');
  // Reading on the recipes site carries the shop's site data there: it asks, naming both.
  const read = toolCard(panel, `${R}__get_ingredients`);
  await expect(read.locator('fieldset.confirm')).toContainText(`read on ${hostOf(server.url)}`, { timeout: 30_000 });
  await expect(read.locator('fieldset.confirm')).toContainText(`would go to ${hostOf(recipesUrl)}`);
  await read.getByRole('button', { name: 'Allow once' }).click();
  const add = toolCard(panel, `${S}__add_to_cart`);
  await expect(add.locator('fieldset.confirm')).toContainText(`read on ${hostOf(recipesUrl)}`, { timeout: 30_000 });
  await expect(add.locator('fieldset.confirm pre')).toContainText('"quantity": 2');
  await add.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.conversation').getByText('Two mugs are in your basket.')).toBeVisible({ timeout: 30_000 });

  // Each card names where its call ran; each call ran in its own tab.
  const recipesTitle = (await recipes.page.title()).trim();
  await expect(read.locator('.tool-place')).toHaveText(`on ${hostOf(recipesUrl)} · ${recipesTitle} (tab ${recipes.tabId})`);
  await expect(add.locator('.tool-place')).toContainText(`on ${hostOf(server.url)} · `);
  await expect(add.locator('.tool-place')).toContainText('(this tab)');
  await expect(shop.locator('#cart-count')).toHaveText('2');
  expect(recipes.page.url()).toBe(recipesUrl);
  // What the recipes tab showed is the task's: no note that this tab changed site.
  await expect(panel.getByRole('region', { name: /^Now on/ })).toHaveCount(0);
  // The Markdown export names the tab and site of each call too.
  await panel.locator('details.menu summary', { hasText: 'Export' }).click();
  const saved = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Conversation as Markdown' }).click();
  const markdown = readFileSync((await (await saved).path())!, 'utf8');
  expect(markdown).toContain(`${R}__get_ingredients\` (tab ${recipes.tabId}, ${new URL(recipesUrl).origin})`);
  expect(markdown).toContain(`${S}__add_to_cart\` (tab ${shopId}, ${new URL(server.url).origin})`);
  const sent = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(readSent(sent[0]!).tools.map((t) => t.name)).toEqual(expect.arrayContaining([`${R}__get_ingredients`, `${S}__add_to_cart`]));
  expect(JSON.stringify(readSent(sent[1]!).toolResults)).toContain('Shakshuka for 2');
  await expectAccessible(panel);
});

test('the chooser follows the open tabs: a tab whose site the router names only after the list was read gets its Add by itself', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const later = await context.newPage();
  const { panel } = await openShop(f, server.url);
  const others = panel.getByRole('list', { name: 'Other open tabs' });
  await panel.locator('details.task-tabs summary').click();
  // Read while the tab shows about:blank, which has no site: nothing of it to add yet.
  await expect(others.getByText(/Cannot be added: its site is not known/).first()).toBeVisible();
  const addRecipes = panel.getByRole('button', { name: /^Add localhost\b/ });
  await expect(addRecipes).toHaveCount(0);

  // The tab reaches the recipes site; the person presses nothing.
  await later.goto(`${server.crossOriginUrl}/demo/recipes/`);
  await expect(addRecipes).toBeVisible({ timeout: 20_000 });
  await expect(others.getByRole('listitem').filter({ hasText: 'localhost' })).toContainText(/\d+ tools/);
});

test('a crossing asks with the data and both sites; "Allow for this task" lets the same direction go unasked, not the reverse, and a new chat asks again', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  await openTab(f, recipesUrl, 'get_ingredients');
  const { panel } = await openShop(f, server.url);
  const R = label(recipesUrl);
  const S = label(server.url);
  const shopHost = hostOf(server.url);
  const recipesHost = hostOf(recipesUrl);
  provider.script(
    { type: 'reply', toolCalls: [{ name: `${R}__search_recipes`, input: { query: 'soup for the mug' } }] },
    { type: 'reply', toolCalls: [{ name: `${R}__get_ingredients`, input: { recipeId: 'lentil-soup' } }] },
    { type: 'reply', toolCalls: [{ name: `${S}__search_products`, input: { query: 'red lentils' } }] },
    { type: 'reply', text: 'The shop has no lentils.' },
  );
  await addTab(panel, recipesUrl);
  await sendFromPanel(panel, 'Find a soup and its ingredients in the shop');

  const search = toolCard(panel, `${R}__search_recipes`);
  const question = search.locator('fieldset.confirm');
  await expect(question).toContainText(`read on ${shopHost}`, { timeout: 30_000 });
  await expect(question.locator('pre')).toContainText('"query": "soup for the mug"');
  await expect(question.locator('.confirm-flows')).toContainText(`${shopHost} → ${recipesHost}`);
  await search.getByRole('button', { name: 'Allow for this task' }).click();

  // Same direction: shop → recipes runs unasked (the run would stall on a question otherwise).
  const ingredients = toolCard(panel, `${R}__get_ingredients`);
  await expect(ingredients.locator('.tool-state')).toHaveText('done', { timeout: 30_000 });
  // The reverse, recipes → shop, still asks.
  const back = toolCard(panel, `${S}__search_products`);
  await expect(back.locator('fieldset.confirm .confirm-flows')).toContainText(`${recipesHost} → ${shopHost}`, { timeout: 30_000 });
  await expect(back.locator('fieldset.confirm pre')).toContainText('"query": "red lentils"');
  await back.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('The shop has no lentils.')).toBeVisible({ timeout: 30_000 });
  await expect(ingredients.locator('fieldset.confirm')).toHaveCount(0);

  // A new chat ends the task: the tab is added again, and the same crossing asks again.
  await panel.getByRole('button', { name: 'New chat' }).click();
  await expect(panel.locator('details.task-tabs summary')).toHaveText('Tabs: this tab only');
  provider.script(
    { type: 'reply', toolCalls: [{ name: `${R}__search_recipes`, input: { query: 'cake' } }] },
    { type: 'reply', text: 'Not searched.' },
  );
  await addTab(panel, recipesUrl);
  await sendFromPanel(panel, 'And a cake?');
  const again = toolCard(panel, `${R}__search_recipes`);
  await expect(again.locator('fieldset.confirm .confirm-flows')).toContainText(`${shopHost} → ${recipesHost}`, { timeout: 30_000 });
  await again.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('Not searched.')).toBeVisible({ timeout: 30_000 });
});

test('a tab that moves to another site or closes leaves the task: the panel says so, and its tools are gone from the next step', async ({
  context,
  server,
  third,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  const courierUrl = `${third.url}/task-courier.html`;
  const recipes = await openTab(f, recipesUrl, 'get_ingredients');
  const courier = await openTab(f, courierUrl, 'read_notes');
  const { panel } = await openShop(f, server.url);
  const R = label(recipesUrl);
  const C = label(courierUrl);
  provider.script({ type: 'reply', text: 'Three tabs.' }, { type: 'reply', text: 'One tab left.' });
  await addTab(panel, recipesUrl);
  await addTab(panel, courierUrl);
  await sendFromPanel(panel, 'What can you do?');
  await expect(panel.locator('.conversation').getByText('Three tabs.')).toBeVisible({ timeout: 30_000 });
  expect(offered(provider)[0]).toEqual(expect.arrayContaining([`${R}__get_ingredients`, `${C}__read_notes`]));

  // The recipes tab moves to another site: it leaves, and the panel says so.
  await recipes.page.goto(`${third.crossOriginUrl}/plain.html`);
  const note = panel.locator('.task-left');
  await expect(note).toContainText(`${hostOf(recipesUrl)} left the task: the tab moved to ${hostOf(third.crossOriginUrl)}`);
  // The courier tab closes: its note replaces the last.
  await courier.page.close();
  await expect(note).toContainText(`${hostOf(courierUrl)} left the task: the tab was closed`);
  await expect(panel.locator('details.task-tabs summary')).toHaveText('Tabs: this tab only');
  await note.getByRole('button', { name: 'Dismiss' }).click();
  await expect(note).toHaveCount(0);

  await sendFromPanel(panel, 'And now?');
  await expect(panel.locator('.conversation').getByText('One tab left.')).toBeVisible({ timeout: 30_000 });
  const next = offered(provider)[1]!;
  expect(next.filter((name) => name.startsWith(`${R}__`) || name.startsWith(`${C}__`))).toEqual([]);
  expect(next).toContain('add_to_cart');
});

test('a card keeps where its call ran: the tab moving to another site later does not rename it (issue 45)', async ({
  context,
  server,
  third,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  const recipes = await openTab(f, recipesUrl, 'get_ingredients');
  const recipesTitle = (await recipes.page.title()).trim();
  const { panel } = await openShop(f, server.url);
  const R = label(recipesUrl);
  provider.script(
    { type: 'reply', toolCalls: [{ name: `${R}__get_ingredients`, input: { recipeId: 'shakshuka', servings: 2 } }] },
    { type: 'reply', text: 'Read it.' },
  );
  await addTab(panel, recipesUrl);
  await sendFromPanel(panel, 'What goes into a shakshuka?');
  const read = toolCard(panel, `${R}__get_ingredients`);
  await read.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('Read it.')).toBeVisible({ timeout: 30_000 });
  const place = `on ${hostOf(recipesUrl)} · ${recipesTitle} (tab ${recipes.tabId})`;
  await expect(read.locator('.tool-place')).toHaveText(place);

  // The tab moves on to another site, whose page has a title of its own; the panel learns it (the chooser lists it).
  await recipes.page.goto(`${third.crossOriginUrl}/plain.html`);
  await expect(panel.locator('.task-left')).toContainText(`${hostOf(recipesUrl)} left the task`);
  const chooser = panel.locator('details.task-tabs');
  if ((await chooser.getAttribute('open')) === null) await chooser.locator('summary').click();
  await expect(panel.getByRole('list', { name: 'Other open tabs' })).toContainText('Plain page');
  // The card still says where its call ran, then: the recipes site and the recipe page's title.
  await expect(read.locator('.tool-place')).toHaveText(place);
  await expect(read.locator('.tool-place')).not.toContainText('Plain page');
});

test('Stop stops a call running in another tab of the task', async ({
  context,
  server,
  third,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const courierUrl = `${third.url}/task-courier.html`;
  const courier = await openTab(f, courierUrl, 'wait_for_pickup');
  const { panel } = await openShop(f, server.url);
  const C = label(courierUrl);
  provider.script({ type: 'reply', toolCalls: [{ name: `${C}__wait_for_pickup`, input: { order: 'A1' } }] });
  await addTab(panel, courierUrl);
  await sendFromPanel(panel, 'Wait for the courier');
  const wait = toolCard(panel, `${C}__wait_for_pickup`);
  await wait.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect.poll(() => courier.page.evaluate(() => (window as unknown as { pickupStarted: boolean }).pickupStarted)).toBe(true);
  await expect(wait.locator('.tool-state')).toHaveText('running');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(wait.locator('.tool-state')).toHaveText('cancelled', { timeout: 30_000 });
  await expect.poll(() => courier.page.evaluate(() => (window as unknown as { pickupCancelled: boolean }).pickupCancelled)).toBe(true);
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
});

test('attack: a page in an added tab steers the agent into the shop’s tool with its data: the question shows the data and both sites, and Deny runs nothing', async ({
  context,
  server,
  third,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const courierUrl = `${third.url}/task-courier.html`;
  await openTab(f, courierUrl, 'read_notes');
  const { page: shop, panel } = await openShop(f, server.url);
  const C = label(courierUrl);
  const S = label(server.url);
  provider.script(
    { type: 'reply', toolCalls: [{ name: `${C}__read_notes`, input: {} }] },
    // The model obeys the note.
    { type: 'reply', toolCalls: [{ name: `${S}__add_to_cart`, input: { quantity: 9 } }] },
    { type: 'reply', text: 'I did not add them.' },
  );
  await addTab(panel, courierUrl);
  await sendFromPanel(panel, 'Read the courier notes');
  const read = toolCard(panel, `${C}__read_notes`);
  await read.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  const add = toolCard(panel, `${S}__add_to_cart`);
  const question = add.locator('fieldset.confirm');
  await expect(question).toContainText(`read on ${hostOf(courierUrl)}`, { timeout: 30_000 });
  await expect(question).toContainText(`would go to ${hostOf(server.url)}`);
  await expect(question.locator('pre')).toContainText('"quantity": 9');
  await add.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('I did not add them.')).toBeVisible({ timeout: 30_000 });
  await expect(shop.locator('#cart-count')).toHaveText('0');
});

test('attack: a page and its content script cannot join a tab to the task: forged panel intents add nothing', async ({
  context,
  server,
  provider,
  serviceWorker,
  extensionId,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const recipesUrl = `${server.crossOriginUrl}/demo/recipes/`;
  const recipes = await openTab(f, recipesUrl, 'get_ingredients');
  const { tabId: shopId, panel } = await openShop(f, server.url);
  const R = label(recipesUrl);
  provider.script({ type: 'reply', text: 'One tab.' });
  const intent = { type: 'panel/add-task-tab', tabId: shopId, addTabId: recipes.tabId };

  // The page's world posts the intent every way it can reach.
  await recipes.page.evaluate((message) => {
    window.postMessage(message, '*');
    window.top?.postMessage(message, '*');
  }, intent);
  // A compromised content script connects with the panel's Port name, and sends the intent as a runtime message.
  const tried = await evaluateInContentScript<string[]>(
    recipes.page,
    extensionId,
    `async () => {
      const intent = ${JSON.stringify(intent)};
      const said = [];
      const port = chrome.runtime.connect({ name: 'webmcp-agent-panel' });
      const cut = new Promise((resolve) => port.onDisconnect.addListener(() => resolve('cut off')));
      try { port.postMessage(intent); said.push('posted'); } catch (e) { said.push('post threw'); }
      // No clock: a Port that stays open leaves this waiting until the test's own timeout fails it.
      said.push(await cut);
      try { await chrome.runtime.sendMessage(intent); said.push('sent'); } catch (e) { said.push('send threw'); }
      return said;
    }`,
  );
  expect(tried).toContain('cut off');

  // The person's next message: the run spans the own tab alone.
  await sendFromPanel(panel, 'What can you do?');
  await expect(panel.locator('.conversation').getByText('One tab.')).toBeVisible({ timeout: 30_000 });
  expect(offered(provider)[0]!.filter((name) => name.startsWith(`${R}__`))).toEqual([]);
  await expect(panel.locator('details.task-tabs summary')).toHaveText('Tabs: this tab only');
});

test('a frame in an added tab: its tools are named by the frame’s origin, and a crossing into it asks', async ({
  context,
  server,
  third,
  provider,
  serviceWorker,
  tabIdOf,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const f = { context, serviceWorker, tabIdOf, openSidePanel };
  const frameUrl = `${third.crossOriginUrl}/frame-tool.html?who=tracker`;
  const courierUrl = `${third.url}/task-courier.html?frame=${encodeURIComponent(frameUrl)}`;
  await openTab(f, courierUrl, 'where');
  const { panel } = await openShop(f, server.url);
  const frameName = `${label(frameUrl)}__where`;
  provider.script({ type: 'reply', toolCalls: [{ name: frameName, input: {} }] }, { type: 'reply', text: 'Not asked.' });
  await addTab(panel, courierUrl);
  await sendFromPanel(panel, 'Where is my parcel?');
  const call = toolCard(panel, frameName);
  const question = call.locator('fieldset.confirm');
  await expect(question).toContainText(`on ${hostOf(frameUrl)} (a frame inside ${hostOf(courierUrl)})`, { timeout: 30_000 });
  await expect(question).toContainText(`read on ${hostOf(server.url)}`);
  await expect(question).toContainText(`would go to ${hostOf(frameUrl)}`);
  await call.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('Not asked.')).toBeVisible({ timeout: 30_000 });
  const names = offered(provider)[0]!;
  expect(names).toContain(frameName);
  // The frame's tool is never named as the courier's own site's.
  expect(names).not.toContain(`${label(courierUrl)}__where`);
});
