import { callTool, expectTools, test, textOf } from './bridge-helpers';
import { expect } from './fixtures';

test('a page on the legacy API: provideContext, unregisterTool, registerTool → {unregister}, clearContext', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/legacy.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['legacy_gone', 'legacy_hello', 'legacy_temp']);
  expect(await callTool(serviceWorker, tabId, 'legacy_hello', { name: 'Ada' })).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
  expect(textOf(await callTool(serviceWorker, tabId, 'legacy_temp'))).toBe('temp');

  await page.evaluate(() => (window as any).legacyStep('unregister'));
  await expectTools(serviceWorker, tabId, ['legacy_hello']);
  await page.evaluate(() => (window as any).legacyStep('replace'));
  await expectTools(serviceWorker, tabId, ['legacy_new']);
  expect(textOf(await callTool(serviceWorker, tabId, 'legacy_new'))).toBe('new');
  await page.evaluate(() => (window as any).legacyStep('clear'));
  await expectTools(serviceWorker, tabId, []);
});
