/**
 * Side panel E2E helpers: the loopback provider server as a fixture, cloud settings written the way the options
 * page stores them, axe checks and screenshots for review.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Worker } from '@playwright/test';
import { type ProviderServer, startProviderServer } from '../servers/provider-server';
import { expectTools } from './connector-helpers';
import { expect, test as base } from './fixtures';

export const API_KEY = 'sk-panel-test-key';

export const test = base.extend<{ provider: ProviderServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  provider: async ({}, use) => {
    const server = await startProviderServer({ apiKey: API_KEY });
    await use(server);
    await server.close();
  },
});
export { expect };

/** Cloud mode against the loopback provider (OpenAI-compatible), stored as the options page stores it. */
export async function useCloud(sw: Worker, provider: ProviderServer, options: { apiKey?: string } = {}) {
  await sw.evaluate(
    ([baseURL, key]) =>
      chrome.storage.local.set({
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL, model: 'gpt-test' },
        'secret.apiKey.openai-compatible': key,
        'settings.apiKeyMask.openai-compatible': 'sk-…test',
      }),
    [`${provider.url}/v1`, options.apiKey ?? API_KEY] as const,
  );
}

/** Opens the demo shop and the side panel bound to its tab, once the panel shows the shop's tools. */
export async function openShopWithPanel(
  context: import('@playwright/test').BrowserContext,
  serverUrl: string,
  openSidePanel: (page: Page) => Promise<Page>,
) {
  const shop = await context.newPage();
  await shop.goto(`${serverUrl}/demo/`);
  await expect(shop.locator('h1').first()).toBeVisible();
  const panel = await openSidePanel(shop);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  return { shop, panel };
}

/**
 * Opens `url` in a new tab, waits until the router lists exactly `tools` for it, and opens the side panel bound to
 * the tab once the panel shows them.
 */
export async function openWithPanel(
  fixtures: {
    context: import('@playwright/test').BrowserContext;
    serviceWorker: Worker;
    tabIdOf: (page: Page) => Promise<number>;
    openSidePanel: (page: Page) => Promise<Page>;
  },
  url: string,
  tools: string[],
): Promise<{ tab: Page; tabId: number; panel: Page }> {
  const tab = await fixtures.context.newPage();
  await tab.goto(url);
  const tabId = await fixtures.tabIdOf(tab);
  await expectTools(fixtures.serviceWorker, tabId, tools);
  const panel = await fixtures.openSidePanel(tab);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  return { tab, tabId, panel };
}

/** Types `text` into the panel's message box and presses Send, as a person would. */
export async function sendFromPanel(panel: Page, text: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Message' }).fill(text);
  await panel.getByRole('button', { name: 'Send' }).click();
}

/** Fails on serious or critical axe violations, listing them. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Writes a screenshot for review to test-results/screenshots/. */
export async function screenshot(page: Page, name: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}
