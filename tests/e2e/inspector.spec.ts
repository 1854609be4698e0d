import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { API_KEY, expect, expectAccessible, openShopWithPanel, screenshot, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

/** Opens the Tools view and expands one tool's inspector. */
async function inspect(panel: Page, name: string): Promise<Locator> {
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).click();
  const tool = panel.locator('.tool-inspect').filter({ has: panel.locator('summary code', { hasText: new RegExp(`^${name}$`) }) });
  await tool.locator('summary').click();
  return tool;
}

test('the Tools view inspects a tool, and a call run by hand goes through the bridge into the timeline', async ({
  context,
  server,
  openSidePanel,
}) => {
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 420, height: 900 });
  const tool = await inspect(panel, 'search_products');
  const facts = tool.locator('.tool-facts');
  await expect(facts).toContainText('the top frame');
  await expect(facts).toContainText(new URL(server.url).origin);
  const input = tool.getByRole('table', { name: 'Input of search_products' });
  await expect(input.getByRole('row', { name: /query required/ })).toContainText('string');
  await expect(input.getByRole('row', { name: /maxResults/ })).toContainText('integer');
  await expect(tool.getByRole('list', { name: 'Annotations' })).toContainText('Read-only');

  const form = tool.getByRole('form', { name: 'Run search_products by hand' });
  await form.getByLabel('query').fill('mug');
  await form.getByRole('button', { name: 'Run search_products' }).click();
  const result = form.locator('.call-result');
  await expect(result).toContainText('Done');
  await expect(result.locator('pre')).toContainText('Found');
  await expect(result).toContainText(/in \d+ ms/);
  // It ran in the page for real.
  await expect(shop).toHaveURL(/#\/search\?q=mug/);
  await screenshot(panel, 'inspector-hand-run');
  await expectAccessible(panel);

  await panel.getByRole('button', { name: 'Develop' }).click();
  const entry = panel.locator('.timeline-entry').first();
  await expect(entry).toContainText('By hand');
  await expect(entry).toContainText('search_products');
  await expect(entry.locator('pre').first()).toContainText('"query": "mug"');
  await expectAccessible(panel);
});

test('a call by hand that the validator refuses never reaches the page, and the form says why', async ({
  context,
  server,
  openSidePanel,
}) => {
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const tool = await inspect(panel, 'search_products');
  const form = tool.getByRole('form', { name: 'Run search_products by hand' });
  await form.getByRole('button', { name: 'Run search_products' }).click();
  await expect(form.locator('.field-error')).toHaveText('query: required');
  await form.getByLabel('query').fill('mug');
  await form.getByLabel('maxResults').fill('50');
  await form.getByRole('button', { name: 'Run search_products' }).click();
  await expect(form.getByRole('alert')).toContainText(/Not run: maxResults/);
  await expect(form.locator('.call-result')).toHaveCount(0);
  await expect(shop).not.toHaveURL(/#\/search/);
  await panel.getByRole('button', { name: 'Develop' }).click();
  await expect(panel.getByText('No tool has been called on this tab yet.')).toBeVisible();
});

test('a call by hand to a consequential tool asks first, like the agent’s', async ({ context, server, openSidePanel }) => {
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const tool = await inspect(panel, 'check_out');
  const form = tool.getByRole('form', { name: 'Run check_out by hand' });
  await form.getByLabel('name').fill('Ada Lovelace');
  await form.getByLabel('email').fill('ada@example.test');
  await form.getByRole('button', { name: 'Run check_out' }).click();
  const confirm = form.locator('fieldset.confirm');
  await expect(confirm.locator('legend')).toContainText(/Allow check_out on 127\.0\.0\.1:\d+\?/);
  await expect(shop).not.toHaveURL(/#\/order\//);
  await expectAccessible(panel);
  await confirm.getByRole('button', { name: 'Allow once' }).click();
  // Allowed, it reached the page, which answers for itself: the cart is empty.
  await expect(form.locator('.call-result')).toContainText('The cart is empty');
  await expect(form.locator('.call-result')).toContainText('Failed');
});

test('evals run in the real agent on the demo shop: a table with progress, scores, and an exported report', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  provider.script(
    // Find mugs: passes.
    { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
    { type: 'reply', text: 'Yes: the ceramic mug.' },
    // Read the cart without buying: passes.
    { type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] },
    { type: 'reply', text: 'Your cart is empty.' },
    // Add a medium linen shirt: opens the wrong product, fails.
    { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'merino-tee' } }] },
    { type: 'reply', text: 'Done.' },
    // Two products: answers without calling anything, fails.
    { type: 'reply', text: `I cannot do that. (By the way, your key is ${API_KEY}.)` },
  );
  await useCloud(serviceWorker, provider);
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 460, height: 900 });
  await expect(panel.getByRole('combobox', { name: 'Agent' })).toHaveValue('cloud');
  await panel.getByRole('button', { name: 'Develop' }).click();
  await panel.getByLabel('Eval file').setInputFiles('demo/evals.json');
  await expect(panel.getByText('4 cases loaded.')).toBeVisible();
  await expect(panel.getByLabel('Starting URL')).toHaveValue(`${server.url}/demo/`);
  await panel.getByRole('button', { name: 'Run 4 cases' }).click();
  await expect(panel.getByRole('status').filter({ hasText: /passed\.$/ })).toHaveText('2 of 4 passed.', { timeout: 90_000 });
  const table = panel.getByRole('table', { name: 'Eval results' });
  await expect(table.getByRole('row', { name: /Find mugs/ })).toContainText('PASS');
  await expect(table.getByRole('row', { name: /Read the cart/ })).toContainText('PASS');
  await expect(table.getByRole('row', { name: /linen shirt/ })).toContainText('FAIL');
  await expect(table.getByRole('row', { name: /linen shirt/ })).toContainText('productId: expected "linen-shirt", got "merino-tee"');
  await expect(table.getByRole('row', { name: /Two products/ })).toContainText('not called');
  await screenshot(panel, 'evals-table');
  await expectAccessible(panel);

  const download = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export report' }).click();
  const report = JSON.parse(readFileSync(await (await download).path(), 'utf8'));
  expect(report).toMatchObject({
    format: 'webmcp-agent-eval-report',
    url: `${server.url}/demo/`,
    summary: { total: 4, passed: 2, failed: 2, errors: 0 },
  });
  expect(report.cases.map((c: { outcome: string }) => c.outcome)).toEqual(['pass', 'pass', 'fail', 'fail']);

  // The last case's conversation is the panel's: its transcript exports without the key.
  await panel.getByRole('button', { name: 'Chat', exact: true }).click();
  await panel.locator('details.menu summary').click();
  const saved = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Conversation as Markdown' }).click();
  const markdown = readFileSync(await (await saved).path(), 'utf8');
  expect(markdown).toContain('Put a ceramic mug and a canvas tote in my cart.');
  expect(markdown).toContain('[redacted]');
  expect(markdown).not.toContain(API_KEY);
});
