/**
 * Frames and the tool router under attack (issue 11, items 4–7): a frame's identity is what the browser attests,
 * an approval runs only the tool instance the person saw, the top frame keeps its names, cross-origin frames need
 * the page's delegation, and one flooding tab neither fills the model's context nor delays another tab.
 */
import type { Page } from '@playwright/test';
import { callTool, expectTools, getTools, textOf } from './bridge-helpers';
import { evaluateInContentScript } from './content-script-world';
import { expect, test, useCloud } from './sidepanel-helpers';

const toolCard = (panel: Page, name: string) =>
  panel.locator('.tool-card').filter({ has: panel.locator('.tool-name', { hasText: new RegExp(`^${name}$`) }) });

test('a compromised content script that claims https://bank.example is known by its real origin', async ({
  context,
  server,
  serviceWorker,
  extensionId,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  const tabId = await tabIdOf(page);
  await evaluateInContentScript(
    page,
    extensionId,
    `async () => {
      const bank = 'https://bank.example';
      await chrome.runtime.sendMessage({ type: 'bridge:frame-tools', report: {
        url: bank + '/account', origin: bank, page: { url: bank + '/account', title: 'Your bank' },
        tools: [{ name: 'transfer', description: 'Moves money.', inputSchema: { type: 'object', properties: {} } }],
      } });
    }`,
  );
  const snapshot = await expectTools(serviceWorker, tabId, ['transfer']);
  expect(snapshot.tools[0]).toMatchObject({ name: 'transfer', origin: server.url, frameId: 0 });
  expect(snapshot.page.url).toBe(`${server.url}/plain.html`);
  expect(JSON.stringify(snapshot)).not.toContain('bank.example');
});

test('the top frame keeps its plain tool name when a frame registered the same name first', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/frame-first.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['place_order']);
  await page.evaluate(() => (window as any).registerTop());
  const snapshot = await expectTools(serviceWorker, tabId, ['place_order', 'place_order_2']);
  expect(snapshot.tools.map((t) => [t.name, t.frameId === 0 ? 'top' : 'frame'])).toEqual([
    ['place_order', 'top'],
    ['place_order_2', 'frame'],
  ]);
  expect(textOf(await callTool(serviceWorker, tabId, 'place_order'))).toBe('shop');
  expect(textOf(await callTool(serviceWorker, tabId, 'place_order_2'))).toBe('ad');
});

test('a confirmation stays with the page it was asked on: navigating to another site with "pay" runs nothing there', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', toolCalls: [{ name: 'pay', input: { amount: 5 } }] }, { type: 'reply', text: 'It did not go through.' });
  const shop = await context.newPage();
  await shop.goto(`${server.url}/pay.html`);
  const tabId = await tabIdOf(shop);
  await expectTools(serviceWorker, tabId, ['pay']);
  const panel = await openSidePanel(shop);
  await expect(panel.getByRole('button', { name: /^Tools \(1\)$/ })).toBeVisible({ timeout: 20_000 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Pay 5');
  await panel.getByRole('button', { name: 'Send' }).click();
  const card = toolCard(panel, 'pay');
  await expect(card.locator('fieldset.confirm')).toContainText(/Allow pay on 127\.0\.0\.1:\d+\?/, { timeout: 30_000 });

  // While the question is open, the tab goes to another site that also has a "pay" tool.
  await shop.goto(`${server.crossOriginUrl}/pay.html`);
  await expect
    .poll(async () => (await getTools(serviceWorker, tabId)).tools.map((t) => `${t.name}@${t.origin}`), { timeout: 15_000 })
    .toEqual([`pay@${server.crossOriginUrl}`]);
  await card.getByRole('button', { name: 'Allow once' }).click();

  await expect(card.locator('.tool-state')).toHaveText('failed');
  await card.locator('summary').click();
  await expect(card.locator('.tool-body')).toContainText(
    `Error [tool_changed]: "pay" now belongs to localhost:${server.port}, not 127.0.0.1:${server.port} where the person approved it`,
  );
  expect(await shop.evaluate(() => (window as any).paid)).toEqual([]);
  await expect(panel.locator('.conversation').getByText('It did not go through.')).toBeVisible();
  expect(JSON.stringify(provider.requests.at(-1)!.body)).toContain('tool_changed');
});
