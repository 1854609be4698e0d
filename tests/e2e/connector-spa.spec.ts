import { callTool, expectTools, getTools, test } from './connector-helpers';
import { expect } from './fixtures';

test('an SPA that swaps its tools: the snapshot follows, and is settled when the call reports', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/spa.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['list_products', 'open_cart']);
  expect(await callTool(serviceWorker, tabId, 'open_cart')).toEqual({ content: [{ type: 'text', text: 'on cart' }] });
  // No polling: the call waited for the list to settle before it reported.
  const afterCall = await getTools(serviceWorker, tabId);
  expect(afterCall.tools.map((t) => t.name).sort()).toEqual(['checkout', 'go_home']);
  expect(afterCall.page).toMatchObject({ h1: 'Cart' });
  expect(await callTool(serviceWorker, tabId, 'go_home')).toEqual({ content: [{ type: 'text', text: 'home' }] });
  expect((await getTools(serviceWorker, tabId)).tools.map((t) => t.name).sort()).toEqual(['list_products', 'open_cart']);
  // A page that navigates on its own (not through a tool) resets the snapshot to the new document's tools.
  await page.goto(`${server.url}/search-results.html`);
  await expectTools(serviceWorker, tabId, ['next_page']);
});
