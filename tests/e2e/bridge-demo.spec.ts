import { existsSync } from 'node:fs';
import { callTool, getTools, test, textOf } from './bridge-helpers';
import { expect } from './fixtures';

test.skip(!existsSync('demo/index.html'), 'the demo shop is not built yet');

test('the demo shop: its tools are discovered with provider-safe names and get_cart runs', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/demo/`);
  const tabId = await tabIdOf(page);
  // The shop registers its tools as its routes render: wait for the home page's set.
  await expect
    .poll(async () => (await getTools(serviceWorker, tabId)).tools.map((t) => t.name), { timeout: 15_000 })
    .toEqual(expect.arrayContaining(['search_products', 'get_cart', 'subscribe_newsletter']));
  const { tools } = await getTools(serviceWorker, tabId);
  for (const tool of tools) {
    expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tool.schemaError).toBeUndefined();
  }
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_products', 'get_cart', 'subscribe_newsletter']));
  expect(tools.find((t) => t.name === 'get_cart')).toMatchObject({ annotations: { readOnlyHint: true }, frameId: 0 });
  const output = await callTool(serviceWorker, tabId, 'get_cart', {});
  expect(output.isError).toBeUndefined();
  expect(JSON.parse(textOf(output))).toMatchObject({ message: 'The cart is empty.' });
});
