/**
 * Issue 45: a tool whose result is tens of megabytes. It is refused whole before it is normalised, cut or sent on,
 * and the model reads a clear error in the extension's words.
 */
import { callTool, expectTools, textOf } from './connector-helpers';
import { expect, test } from './fixtures';

test('a result of 30 MB becomes a clear error the model reads, and the tool can be called again', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/hostile/huge-result.html?mb=30`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['huge_result']);
  const refused =
    'Error [too_large]: "huge_result" returned a result of more than 1,000,000 characters; the extension refused it whole, so none of it is shown. Ask the tool for less, for example with a filter or a smaller page.';
  const first = await callTool(serviceWorker, tabId, 'huge_result');
  expect(first.isError).toBe(true);
  expect(textOf(first)).toBe(refused);
  expect(first.content).toHaveLength(1);
  // Nothing is left stuck: the next call runs and is refused the same way.
  expect(textOf(await callTool(serviceWorker, tabId, 'huge_result'))).toBe(refused);
  expect(await page.evaluate(() => (window as any).calls)).toBe(2);
  await page.close();
});
