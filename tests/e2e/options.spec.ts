/**
 * The options page in the built extension: settings saved and read back after a reload, the key masked and
 * absent from the page, accessibility (axe-core, light and dark), and a screenshot for review.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Worker } from '@playwright/test';
import { startProviderServer } from '../servers/provider-server';
import { expect, test } from './fixtures';

const KEY = 'sk-e2e-0123456789abcdefghijklmnopqrstuv';
const SCREENSHOTS = 'test-results/screenshots';

// Nothing here depends on how the page's tools are provided: run once, in the polyfill project.
test.skip(({ nativeWebMCP }) => nativeWebMCP, 'the options page does not depend on native WebMCP');

/** Everything in the extension's storage areas, as the service worker sees it. */
async function storage(sw: Worker, area: 'local' | 'sync') {
  return sw.evaluate((a) => chrome.storage[a as 'local' | 'sync'].get(null), area) as Promise<Record<string, unknown>>;
}

async function fillCloud(page: Page, baseURL: string) {
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'OpenAI-compatible' });
  await page.getByLabel('Base URL', { exact: true }).fill(baseURL);
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  await page.getByLabel('Model', { exact: true }).fill('gpt-test');
}

async function addSite(page: Page) {
  await page.getByRole('button', { name: 'Add a site' }).click();
  await page.getByLabel('Origin', { exact: true }).fill('http://127.0.0.1:8080');
  await page.getByLabel('About this site', { exact: true }).fill('A demo shop. To buy: search, open_product, then add_to_cart.');
  await page.getByLabel('Max steps', { exact: true }).fill('6');
  await page.getByLabel('Allowed tools', { exact: true }).fill('search, open_product, add_to_cart');
  await page.getByRole('button', { name: 'Add site', exact: true }).click();
  await expect(page.getByText('Added http://127.0.0.1:8080.')).toBeVisible();
}

/** Axe's serious and critical findings, as readable lines (empty when clean). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('settings are saved, survive a reload, and the key is only ever shown masked', async ({ openOptions, serviceWorker }) => {
  const page = await openOptions();
  await fillCloud(page, 'http://127.0.0.1:1/v1/');
  await page.getByRole('radio', { name: 'Cloud' }).check();
  // The default asks before anything not read-only; the person picks the looser policy on purpose.
  await expect(page.getByRole('radio', { name: 'Ask before anything that is not read-only' })).toBeChecked();
  await page.getByRole('radio', { name: 'Ask only before consequential actions' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await addSite(page);

  await page.reload();
  await expect(page.getByLabel('Provider', { exact: true })).toHaveValue('openai-compatible');
  await expect(page.getByLabel('Base URL', { exact: true })).toHaveValue('http://127.0.0.1:1/v1');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('gpt-test');
  await expect(page.getByRole('radio', { name: 'Cloud' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Ask only before consequential actions' })).toBeChecked();
  await expect(page.getByRole('heading', { name: 'http://127.0.0.1:8080' })).toBeVisible();
  await expect(page.getByText('Up to 6 steps · Only search, open_product, add_to_cart')).toBeVisible();

  // Masked, and nowhere in the page: not in the DOM, not in a field's value.
  await expect(page.getByTestId('masked-key')).toHaveText(/sk-…stuv/);
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain(KEY);
  const values = await page.locator('input, textarea, select').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(values.join('\n')).not.toContain(KEY);

  // Stored in storage.local only, never synced.
  expect((await storage(serviceWorker, 'local'))['secret.apiKey.openai-compatible']).toBe(KEY);
  expect(JSON.stringify(await storage(serviceWorker, 'sync'))).not.toContain(KEY);

  await page.getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('API key deleted from this browser.')).toBeVisible();
  expect(JSON.stringify(await storage(serviceWorker, 'local'))).not.toContain(KEY);
  await page.reload();
  await expect(page.getByLabel('Provider', { exact: true })).toHaveValue('openai-compatible');
  await expect(page.getByTestId('masked-key')).toHaveCount(0);
});

test('the on-device catalog comes from the agent host, with sizes and what is downloaded; the choice is saved', async ({
  openOptions,
  serviceWorker,
}) => {
  const page = await openOptions();
  const recommended = page.getByRole('radio', { name: /Qwen3 0\.6B/ });
  await expect(recommended).toBeChecked({ timeout: 30_000 });
  const row = page.locator('li', { has: recommended });
  await expect(row.getByText('Recommended')).toBeVisible();
  await expect(row.getByText('Not downloaded')).toBeVisible();
  await expect(row.getByText(/\d+ MB download \((q4f16|q4)\)/)).toBeVisible();
  await expect(page.getByText('No model is downloaded yet.')).toBeVisible();

  await page.getByRole('radio', { name: /Qwen3 1\.7B/ }).check();
  await page.getByLabel('Download host', { exact: true }).fill('http://127.0.0.1:9/');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  expect((await storage(serviceWorker, 'local'))['settings.local']).toEqual({
    modelHost: 'http://127.0.0.1:9',
    modelId: 'onnx-community/Qwen3-1.7B-ONNX',
  });
  await page.reload();
  await expect(page.getByRole('radio', { name: /Qwen3 1\.7B/ })).toBeChecked({ timeout: 30_000 });
});

test('a refused field is explained and nothing is saved', async ({ openOptions, serviceWorker }) => {
  const page = await openOptions();
  await page.getByLabel('Provider', { exact: true }).selectOption({ label: 'OpenAI-compatible' });
  await page.getByLabel('Base URL', { exact: true }).fill('localhost:11434/v1');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Not saved: fix the field marked below.')).toBeVisible();
  const baseURL = page.getByLabel('Base URL', { exact: true });
  await expect(baseURL).toHaveAttribute('aria-invalid', 'true');
  await expect(baseURL).toBeFocused();
  await expect(page.getByText('“localhost:11434/v1” needs its scheme')).toBeVisible();
  expect(await storage(serviceWorker, 'local')).not.toHaveProperty('settings.cloud');
});

test('Test connection reaches the provider with the saved key, and reports a refused key', async ({ openOptions }) => {
  const server = await startProviderServer({ apiKey: KEY, models: ['gpt-test', 'gpt-test-mini'] });
  try {
    const page = await openOptions();
    await fillCloud(page, `${server.url}/v1`);
    server.script({ type: 'reply', text: 'OK' });
    // Unsaved changes are saved first, then tested.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.locator('#connection-result')).toHaveText(/^Connected: gpt-test answered in [\d.]+ s\.$/, { timeout: 30_000 });
    const generation = server.requests.filter((r) => r.protocol !== 'models');
    expect(generation).toHaveLength(1);
    expect(generation[0].headers.authorization).toBe(`Bearer ${KEY}`);

    // The Model picker is filled from the provider's listing.
    await expect(page.locator('#model-options option')).toHaveCount(2);
    await expect(page.locator('#model-options option').first()).toHaveAttribute('value', 'gpt-test');

    // A wrong key: the provider refuses it, and the page says so in words, without either key.
    const wrong = 'sk-wrong-0123456789abcdefghijklmnopq';
    await page.getByLabel('API key', { exact: true }).fill(wrong);
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.locator('#connection-result');
    await expect(result).toHaveText(/key/i, { timeout: 30_000 });
    await expect(result).not.toHaveText(/^Connected/);
    expect(await page.content()).not.toContain(wrong);
    expect(await page.content()).not.toContain(KEY);
    await page.screenshot({ path: `${SCREENSHOTS}/options-test-connection-refused.png` });
  } finally {
    await server.close();
  }
});

test('no serious or critical accessibility violations, light and dark; screenshots for review', async ({ openOptions }) => {
  const page = await openOptions();
  await page.setViewportSize({ width: 1100, height: 900 });
  await fillCloud(page, 'http://127.0.0.1:11434/v1');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await addSite(page);
  // A field error on screen too, so its colours and wiring are checked.
  await page.getByRole('button', { name: 'Add a site' }).click();
  await page.getByLabel('Origin', { exact: true }).fill('shop.example');
  await page.getByRole('button', { name: 'Add site', exact: true }).click();
  await expect(page.getByText(/needs its scheme/)).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await seriousViolations(page)).toEqual([]);

  mkdirSync(SCREENSHOTS, { recursive: true });
  // A viewport as tall as the page, so the sticky Save bar sits at the bottom instead of over a section.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1100, height });
  await page.screenshot({ path: `${SCREENSHOTS}/options-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: `${SCREENSHOTS}/options.png` });
});
