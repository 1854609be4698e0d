import { callTool, expectTools, test, textOf, watchTab } from './connector-helpers';
import { expect } from './fixtures';

test('a page on the legacy API: provideContext, unregisterTool, registerTool → {unregister}, clearContext', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/legacy.html`);
  const tabId = await tabIdOf(page);
  if (nativeWebMCP) {
    // Where the browser has WebMCP, the extension puts nothing in the page's own world (issue 12): a page written
    // for the 2025 API finds no navigator.modelContext, exactly as without the extension, and offers no tools.
    expect(await page.evaluate(() => 'modelContext' in navigator)).toBe(false);
    await watchTab(serviceWorker, tabId);
    await expectTools(serviceWorker, tabId, []);
    return;
  }
  await expectTools(serviceWorker, tabId, ['legacy_gone', 'legacy_hello', 'legacy_temp']);
  expect(await callTool(serviceWorker, tabId, 'legacy_hello', { name: 'Ada' })).toEqual({
    content: [{ type: 'text', text: 'Hello, Ada!' }],
  });
  expect(textOf(await callTool(serviceWorker, tabId, 'legacy_temp'))).toBe('temp');

  await page.evaluate(() => (window as any).legacyStep('unregister'));
  await expectTools(serviceWorker, tabId, ['legacy_hello']);
  await page.evaluate(() => (window as any).legacyStep('replace'));
  await expectTools(serviceWorker, tabId, ['legacy_new']);
  expect(textOf(await callTool(serviceWorker, tabId, 'legacy_new'))).toBe('new');
  await page.evaluate(() => (window as any).legacyStep('clear'));
  await expectTools(serviceWorker, tabId, []);
});
